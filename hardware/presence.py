"""Presence: a stream of polls becomes Placed / Removed edges.

A card held on the reader is one tap. A missed poll or two is not a removal:
the card counts as gone after `misses` polls in a row without it, and the time
it left is the first of those misses. Lifting and re-placing the same card
within `debounce_ms` of leaving is dropped, Placed and Removed alike
; a later re-placing is a new tap. A different card replacing
the one on the reader ends the first card's presence at once.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from hardware.events import Placed, Removed


class Presence:
    """Turns `poll()` results (a UID or None) into events, one `update` per poll."""

    def __init__(self, *, misses: int = 3, debounce_ms: float = 1500,
                 clock: Callable[[], float] = time.monotonic):
        if misses < 1:
            raise ValueError("misses must be at least 1")
        self._misses_to_remove = misses
        self._debounce_s = debounce_ms / 1000
        self._clock = clock
        self._current: str | None = None
        self._announced = False           # was the current card's arrival reported?
        self._misses = 0
        self._first_miss_at = 0.0
        self._left: tuple[str, float] | None = None   # the last card gone, and when

    @property
    def current(self) -> str | None:
        """The UID on the reader as presence sees it (misses included)."""
        return self._current

    def update(self, uid: str | None) -> list[Placed | Removed]:
        now = self._clock()
        if uid is None:
            return self._missed(now)
        if uid == self._current:
            self._misses = 0
            return []
        events = self._leave(now) if self._current is not None else []
        return events + self._arrive(uid, now)

    def _missed(self, now: float) -> list[Placed | Removed]:
        if self._current is None:
            return []
        if self._misses == 0:
            self._first_miss_at = now
        self._misses += 1
        if self._misses < self._misses_to_remove:
            return []
        return self._leave(self._first_miss_at)

    def _leave(self, when: float) -> list[Placed | Removed]:
        uid, announced = self._current, self._announced
        self._current, self._announced, self._misses = None, False, 0
        self._left = (uid, when)
        return [Removed(uid)] if announced else []

    def _arrive(self, uid: str, now: float) -> list[Placed | Removed]:
        self._current, self._misses = uid, 0
        bounced = self._left is not None and self._left[0] == uid \
            and now - self._left[1] < self._debounce_s
        self._announced = not bounced
        return [Placed(uid)] if self._announced else []
