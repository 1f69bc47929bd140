"""How a new frame reaches the page's streams without the loop's thread waking the web's at
each frame.

A wake-up sent from the loop's thread at each frame handed the web's thread the interpreter
(its lock) in the middle of the loop's work, and the loop then waited on the streams'
sending: 11 ms at p99 of a frame's publishing with 50 phones on a busy machine (docs/web.md).
Now, while a stream is open, the web's loop looks at the desk's latest frame every WATCH_S
by itself, and at once after a line of the page's own; the loop's thread wakes it only for
the first frame after QUIET_S without a new one, when it has stopped looking (a look is
cheap, but 40 a second for a phone left open cost 0.6% of a core here). The streams wait on
one future a frame, which costs each of them one wake and no timer of its own; with nothing
new they are woken every KEEPALIVE_S, to say they are still there.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from .desk import Desk

WATCH_S = 0.025               # a new frame reaches the streams within this (the page: 100 ms)
QUIET_S = 2.0                 # no new frame this long: the watch waits to be woken
KEEPALIVE_S = 15.0            # a stream says it is still there this often


class Watch:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.closing = False
        self.streams = 0
        self.looking = False                     # read by the loop's thread: no wake needed
        self.next: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loop = asyncio.get_running_loop()
        self._seen: int | None = None
        self._new = self._said = self._loop.time()   # the web loop's time of a new frame, a wake
        self._timer: asyncio.Handle | None = None
        desk.on_change = self.poke

    @contextlib.contextmanager
    def following(self) -> Iterator[None]:
        """A stream open: the desk is watched while any is."""
        self.streams += 1
        if self._timer is None:
            self._begin()
        try:
            yield
        finally:
            self.streams -= 1

    def poke(self) -> None:
        """From the loop's thread, at each frame: a wake only when the watch is not looking."""
        if self.streams and not self.looking and not self.closing:
            try:
                self._loop.call_soon_threadsafe(self._poked)
            except RuntimeError:                 # the page has stopped: the table plays on
                pass

    def look(self) -> bool:
        """Wake the streams if the desk has a frame they have not had: was there one?"""
        frame = self.desk.latest
        version = frame.version if frame is not None else None
        if version == self._seen:
            return False
        self._seen = version
        self._wake()
        return True

    def close(self) -> None:
        """Each stream ends at its wake, now."""
        self.closing = True
        self._wake()

    def _poked(self) -> None:
        if self.streams and not self.looking and not self.closing:
            self._begin()

    def _begin(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.looking, self._new = True, self._loop.time()
        self._timer = self._loop.call_soon(self._tick)

    def _tick(self) -> None:
        """A look (a timer, not a task: it costs the web's thread one callback), then the next
        while a stream is open: soon while frames come, else at the next keep-alive."""
        now = self._loop.time()
        if self.look():
            self._new = self._said = now
        elif now - self._said >= KEEPALIVE_S:
            self._said = now
            self._wake()
        if not self.streams or self.closing:
            self._timer, self.looking = None, False
            return
        if self.looking and now - self._new >= QUIET_S:
            self.looking = False                 # from now on the loop's thread wakes it...
            if self.look():                      # ...so a frame just before is looked at here
                self.looking, self._new, self._said = True, now, now
        wait = WATCH_S if self.looking else max(0.0, self._said + KEEPALIVE_S - now)
        self._timer = self._loop.call_later(wait, self._tick)

    def _wake(self) -> None:
        self.next.set_result(None)
        self.next = self._loop.create_future()
