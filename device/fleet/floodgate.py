"""When a table stops listening to the shared topics: a flood on them costs its game loop.

Any client of the café's broker can publish on tabletop/shared/: a script sending thousands
of forged staff lists a second has paho's thread read each one, and that thread holds the
processor against the table's loop (a tap took 60 ms to reach the screen instead of 18). A
café shares a few decks, staff lists or rosters a minute; so the link counts the live
messages that fail their checks (unsigned, badly signed, replayed, or repeated: not newer),
per publisher where the signature names one, and past BOUND of one publisher's in a second it leaves the subscription
for a pause: the broker stops sending, and the table plays on.

Retained messages never count: they are what the broker holds, which a subscription brings
at once, not a rate (a live message always reaches a subscriber with its retain flag clear,
MQTT 3.1.1: a flood cannot pass for retained ones). So when the pause ends, the retained
messages come first, the café's real ones among them, before the flood can close the gate
again: a valid shared message waits at most the longest pause, 45 s.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

BOUND = 200                   # refused live messages of one publisher in a second
WINDOW_S = 1.0
PAUSE_S = (15.0, 45.0)        # the first pause, doubling while the flood goes on, up to 45 s
CALM_S = 60.0                 # a flood sooner than this after listening again is the same one
PUBLISHERS = 64               # publishers counted at once in a window (any name can be claimed)

PASS, DROP, FLOOD = "pass", "drop", "flood"


class Floodgate:
    """Counts a subscription's refused live messages on `monotonic` (the table's clock) and
    says when they flood; paho's thread counts, the table's thread reopens."""

    def __init__(self, monotonic: Callable[[], float], bound: int = BOUND,
                 pause: tuple[float, float] = PAUSE_S) -> None:
        self.monotonic, self.bound = monotonic, bound
        self.first_pause, self.longest_pause = pause
        self.pause = self.first_pause
        self.seen = 0                        # every message the subscription brought
        self.until: float | None = None      # closed until then (the table's monotonic time)
        self.by: str | None = None           # whose refused messages closed it last
        self._lock = threading.Lock()
        self._window = 0.0
        self._counts: dict[str, int] = {}
        self._reopened_at: float | None = None   # when the last pause ended

    @property
    def closed(self) -> bool:
        return self.until is not None

    def opened(self) -> None:
        """The subscription is (re)made: a new count."""
        with self._lock:
            self._window, self._counts = self.monotonic(), {}

    def admit(self, retain: bool) -> str:
        """PASS a message on to be checked, or DROP it (the gate is closed)."""
        with self._lock:
            self.seen += 1
            return DROP if self.until is not None else PASS

    def refused(self, publisher: str) -> str:
        """A live message failed its checks: PASS, or FLOOD when it is past the bound of its
        publisher's in a second, and the gate has just closed for `pause` seconds."""
        with self._lock:
            if self.until is not None:
                return DROP
            now = self.monotonic()
            if now - self._window >= WINDOW_S:
                self._window, self._counts = now, {}
            if publisher not in self._counts and len(self._counts) >= PUBLISHERS:
                publisher = "*"              # names past the first few: counted together
            self._counts[publisher] = count = self._counts.get(publisher, 0) + 1
            if count <= self.bound:
                return PASS
            again = self._reopened_at is not None and now - self._reopened_at < CALM_S
            self.pause = min(2 * self.pause, self.longest_pause) if again else self.first_pause
            self.until, self.by = now + self.pause, publisher
            return FLOOD

    def due(self) -> bool:
        """True once, when a closed gate's pause is over: it is open again."""
        with self._lock:
            now = self.monotonic()
            if self.until is None or now < self.until:
                return False
            self.until, self._reopened_at = None, now
            return True
