"""When a table stops listening to the shared topics: a flood on them costs its game loop.

Any client of the café's broker can publish on tabletop/shared/: a script sending thousands
of forged staff lists a second has paho's thread read each one, and that thread holds the
processor against the table's loop (a tap took 60 ms to reach the screen instead of 18). A
café shares a few decks, staff lists or rosters a minute; so the link counts what its shared
subscription brings, before reading any of it, and past BOUND messages in a second it leaves
the subscription for a pause: the broker stops sending, and the table plays on. The
shared topics are retained, so what is real comes back when the table subscribes again.

The retained messages a subscription brings at once (a café's shared decks, up to RETAINED
of them: as many topics as the Inbox remembers) are what the broker holds, not a rate, and
do not count. A live message always reaches a subscriber with its retain flag clear (MQTT
3.1.1): a flood cannot pass for retained ones.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from .shared import REMEMBERED

BOUND = 200                   # live messages in a second: a café sends a few a minute
WINDOW_S = 1.0
PAUSE_S = (60.0, 900.0)       # the first pause, doubling while the flood goes on, up to 15 min
CALM_S = 60.0                 # a flood sooner than this after listening again is the same one
RETAINED = REMEMBERED

PASS, DROP, FLOOD = "pass", "drop", "flood"


class Floodgate:
    """Counts a subscription's messages on `monotonic` (the table's clock) and says when it
    floods; paho's thread counts, the table's thread reopens."""

    def __init__(self, monotonic: Callable[[], float], bound: int = BOUND,
                 pause: tuple[float, float] = PAUSE_S, retained: int = RETAINED) -> None:
        self.monotonic, self.bound, self.retained = monotonic, bound, retained
        self.first_pause, self.longest_pause = pause
        self.pause = self.first_pause
        self.seen = 0                        # every message the subscription brought
        self.until: float | None = None      # closed until then (the table's monotonic time)
        self._lock = threading.Lock()
        self._window = 0.0
        self._count = 0
        self._retained_left = retained
        self._reopened_at: float | None = None   # when the last pause ended

    @property
    def closed(self) -> bool:
        return self.until is not None

    def opened(self) -> None:
        """The subscription is (re)made: its retained messages are on their way."""
        with self._lock:
            self._window = self.monotonic()
            self._count, self._retained_left = 0, self.retained

    def admit(self, retain: bool) -> str:
        """PASS a message on, DROP it (the gate is closed), or FLOOD: this one is past the
        bound, and the gate has just closed for `pause` seconds."""
        with self._lock:
            self.seen += 1
            if self.until is not None:
                return DROP
            if retain and self._retained_left > 0:
                self._retained_left -= 1
                return PASS
            now = self.monotonic()
            if now - self._window >= WINDOW_S:
                self._window, self._count = now, 0
            self._count += 1
            if self._count <= self.bound:
                return PASS
            again = self._reopened_at is not None and now - self._reopened_at < CALM_S
            self.pause = min(2 * self.pause, self.longest_pause) if again else self.first_pause
            self.until = now + self.pause
            return FLOOD

    def due(self) -> bool:
        """True once, when a closed gate's pause is over: it is open again."""
        with self._lock:
            now = self.monotonic()
            if self.until is None or now < self.until:
                return False
            self.until, self._reopened_at = None, now
            return True
