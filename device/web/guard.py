"""uvicorn's HTTP/1.1 protocol with the limits the dashboard's server holds.

uvicorn alone has no deadline for receiving a request: a new connection that sends
nothing is never timed out, and a client trickling its headers a byte at a time holds its
connection as long as it likes (measured: docs/web.md). Here each connection has HEAD_S,
from the moment it opens or its last response ended, to get its request line and headers
in, however it trickles them; then it is closed without a word. At most MAX_CONNECTIONS are
open: beyond, a new client takes the place of the oldest one still sending its headers (so
slow clients never hold every place from real requests), and only when every place serves
a request is it answered 503.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_S = 10.0
MAX_CONNECTIONS = 256          # a table's phones, their streams, and room for a storm
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 21\r\nRetry-After: 5\r\nConnection: close\r\n\r\ntoo many connections\n")


class Guard:
    """The open connections, oldest first, each marked while it is still sending its head."""

    def __init__(self) -> None:
        self.open: OrderedDict[GuardedH11, bool] = OrderedDict()
        self.turned_away = 0

    def opened(self, protocol: GuardedH11) -> bool:
        """Make room for a new connection: False when every place serves a request."""
        if len(self.open) >= MAX_CONNECTIONS:
            slowest = next((p for p, heading in self.open.items() if heading), None)
            if slowest is None:
                self.turned_away += 1
                return False
            del self.open[slowest]
            slowest.transport.abort()
        self.open[protocol] = True
        return True

    def heading(self, protocol: GuardedH11, heading: bool) -> None:
        if protocol in self.open:
            self.open[protocol] = heading

    def closed(self, protocol: GuardedH11) -> None:
        self.open.pop(protocol, None)


class GuardedH11(H11Protocol):
    def __init__(self, *args, guard: Guard, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.guard = guard
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if not self.guard.opened(self):
            transport.write(BUSY)
            transport.close()
            return
        self._arm()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:            # a request's head is in: its deadline ends
            self._disarm()
            self.guard.heading(self, False)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():    # the next request's head, or silence: a deadline
            self._arm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.closed(self)
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self.guard.heading(self, True)
        self._deadline = self.loop.call_later(HEAD_S, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        self.guard.closed(self)
        self.transport.abort()
