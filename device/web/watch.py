"""How a new frame reaches the page's streams, with nothing sent from the loop's thread.

While a stream is open, the web's loop looks at the desk's latest frame every WATCH_S, and at
once after a line of the page's own, and wakes the streams when it is new (or every
KEEPALIVE_S, when they say they are still there). A wake-up sent from the loop's thread at
each frame handed the web's thread the interpreter (its lock) in the middle of the loop's
work, and the loop then waited on the streams' sending: 11 ms at p99 of a frame's publishing
with 50 phones on a busy machine, 0.4 ms now (docs/web.md). The streams wait on one future
a frame, which costs each of them one wake and no timer of its own.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from .desk import Desk

WATCH_S = 0.025               # a new frame reaches the streams within this (the page: 100 ms)
KEEPALIVE_S = 15.0            # a stream says it is still there this often


class Watch:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.closing = False
        self.streams = 0
        self.next: asyncio.Future = asyncio.get_running_loop().create_future()
        self._seen: int | None = None
        self._watching: asyncio.Future | None = None

    @contextlib.contextmanager
    def following(self) -> Iterator[None]:
        """A stream open: the desk is watched while any is."""
        self.streams += 1
        if self._watching is None or self._watching.done():
            self._watching = asyncio.ensure_future(self._watch())
        try:
            yield
        finally:
            self.streams -= 1

    def look(self) -> None:
        """Wake the streams if the desk has a frame they have not had."""
        frame = self.desk.latest
        version = frame.version if frame is not None else None
        if version != self._seen:
            self._seen = version
            self._wake()

    def close(self) -> None:
        """Each stream ends at its wake, now."""
        self.closing = True
        self._wake()

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        said = loop.time()
        while self.streams and not self.closing:
            await asyncio.sleep(WATCH_S)
            seen = self._seen
            self.look()
            if self._seen != seen or loop.time() - said >= KEEPALIVE_S:
                if self._seen == seen:
                    self._wake()                 # nothing new: the streams say they are there
                said = loop.time()

    def _wake(self) -> None:
        self.next.set_result(None)
        self.next = asyncio.get_running_loop().create_future()
