"""uvicorn's HTTP/1.1 protocol with the limits the dashboard's server holds.

uvicorn alone has no deadline for receiving a request: a new connection that sends
nothing is never timed out, and a client trickling its headers a byte at a time holds its
connection as long as it likes (measured: docs/web.md). Here each connection has HEAD_S,
from the moment it opens or its last response ended, to get its request line and headers
in, however it trickles them; then it is closed without a word. At most MAX_CONNECTIONS
hold a place: beyond, a new client takes the place of the oldest one still sending its
headers (so slow clients never hold every place from real requests), and only when every
place still serves a request once its own request is in is that request answered 503
(uvicorn's own answer, and the connection closed), with BUSY_MAX such clients at once, past
which one is closed at once.
A client that stops reading what it is sent (a stream's reader gone quiet) is dropped once
its buffers have been full for STALL_S.
"""
from __future__ import annotations

import asyncio
import socket
from collections import OrderedDict

from .lean import bare

with bare("uvicorn"):        # its HTTP/1.1 protocol and what that needs, not its command line
    from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_S = 10.0
STALL_S = 10.0                 # a client that takes nothing of what it is sent this long
MAX_CONNECTIONS = 256          # a table's phones, their streams, and room for a storm
BUSY_MAX = 64                  # clients being told 503 at once
# What a reader that stopped reading may leave unsent: the kernel's buffer, then the
# transport's; past them a stream's send waits, and is given up (device/web/server.py).
SEND_BUFFER = 16 * 1024


class Guard:
    """The connections holding a place, oldest first, each marked while it is still sending
    its request's head; and those beyond, waiting to be told 503."""

    def __init__(self) -> None:
        self.open: OrderedDict[GuardedH11, bool] = OrderedDict()
        self.busy: set[GuardedH11] = set()

    # a server with limits of its own (the dashboard's) says them here
    def most(self) -> int:
        """The connections holding a place at most."""
        return MAX_CONNECTIONS

    def deadline(self) -> float:
        """The seconds a connection has to get its request's head in."""
        return HEAD_S

    def stall(self) -> float:
        """The seconds a client may take nothing of what it is sent."""
        return STALL_S

    def opened(self, protocol: GuardedH11) -> bool:
        """Make room for a new connection: False when every place serves a request."""
        if len(self.open) >= self.most():
            slowest = next((p for p, heading in self.open.items() if heading), None)
            if slowest is None:
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
        self.busy.discard(protocol)


class GuardedH11(H11Protocol):
    def __init__(self, *args, guard: Guard, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.guard = guard
        self._limit = self.limit_concurrency     # uvicorn's: given back to a client told busy
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        transport.set_write_buffer_limits(high=SEND_BUFFER)
        if not self.guard.opened(self):
            if len(self.guard.busy) >= BUSY_MAX:
                transport.abort()
                return
            self.guard.busy.add(self)
            self.limit_concurrency = 0         # its request is answered 503 (uvicorn's)
        self._arm()

    def handle_events(self) -> None:
        # Told busy when it connected; a place may have come free since (a request served, a
        # client gone, a reader moved to a stream's place): its request is taken after all
        if self in self.guard.busy and self.guard.opened(self):
            self.guard.busy.discard(self)
            self.limit_concurrency = self._limit
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:            # a request's head is in: its deadline ends
            self._disarm()
            self.guard.heading(self, False)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():    # the next request's head, or silence: a deadline
            self._arm()
        super().on_response_complete()

    def pause_writing(self) -> None:
        """Its buffers are full: a client that reads nothing more for STALL_S is dropped."""
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(self.guard.stall(), self._drop)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _drop(self) -> None:
        self._stalled = None
        self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
        self._disarm()
        self.guard.closed(self)
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self.guard.heading(self, True)
        self._deadline = self.loop.call_later(self.guard.deadline(), self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        self.guard.closed(self)
        self.transport.abort()
