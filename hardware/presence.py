"""Presence: a stream of polls becomes Placed / Removed edges, per card.

A card held on the reader is one tap. A missed poll or two is not a removal:
a card counts as gone after `misses` polls in a row without it, and the time
it left is the first of those misses. Lifting and re-placing the same card
within `debounce_ms` of leaving is dropped, Placed and Removed alike; a later
re-placing is a new tap. Every card recently on the reader is remembered, so
a reader that alternates between cards gives one tap per card, not one per poll.

`see(uids)` takes a poll of a reader that reports every card in its field: each
card keeps its own count of misses, so a card laid next to a resting one is a
tap of the new card only. `update(uid)` takes a poll of a reader that sees one
card at a time: a different card there means the first one left, at once.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from hardware.events import Placed, Removed


@dataclass
class _OnReader:
    announced: bool                  # was its arrival reported (not a bounce)?
    misses: int = 0
    first_miss_at: float = 0.0


class Presence:
    """Turns polls into events, one `see` (or `update`) per poll."""

    def __init__(self, *, misses: int = 3, debounce_ms: float = 1500,
                 clock: Callable[[], float] = time.monotonic):
        if misses < 1:
            raise ValueError("misses must be at least 1")
        self._misses_to_remove = misses
        self._debounce_s = debounce_ms / 1000
        self._clock = clock
        self._cards: dict[str, _OnReader] = {}
        self._left: dict[str, float] = {}      # cards gone, and when, within the debounce

    @property
    def cards(self) -> tuple[str, ...]:
        """The UIDs on the reader as presence sees them (misses included), oldest first."""
        return tuple(self._cards)

    @property
    def current(self) -> str | None:
        """The card on the reader, the oldest if there are several."""
        return next(iter(self._cards), None)

    def update(self, uid: str | None) -> list[Placed | Removed]:
        """One poll of a single-card reader: its card, or None."""
        if uid is None:
            return self.see(())
        now = self._clock()
        events: list[Placed | Removed] = []
        for other in [other for other in self._cards if other != uid]:
            events += self._leave(other, now)
        return events + self.see((uid,))

    def see(self, uids: Collection[str]) -> list[Placed | Removed]:
        """One poll of a reader that reports every card in its field."""
        now = self._clock()
        self._left = {uid: when for uid, when in self._left.items()
                      if now - when < self._debounce_s}
        events: list[Placed | Removed] = []
        for uid in [uid for uid in self._cards if uid not in uids]:
            events += self._missed(uid, now)
        for uid in uids:
            if uid in self._cards:
                self._cards[uid].misses = 0
            else:
                events += self._arrive(uid)
        return events

    def _missed(self, uid: str, now: float) -> list[Placed | Removed]:
        card = self._cards[uid]
        if card.misses == 0:
            card.first_miss_at = now
        card.misses += 1
        if card.misses < self._misses_to_remove:
            return []
        return self._leave(uid, card.first_miss_at)

    def _leave(self, uid: str, when: float) -> list[Placed | Removed]:
        card = self._cards.pop(uid)
        self._left[uid] = when
        return [Removed(uid)] if card.announced else []

    def _arrive(self, uid: str) -> list[Placed | Removed]:
        bounced = uid in self._left
        self._left.pop(uid, None)
        self._cards[uid] = _OnReader(announced=not bounced)
        return [] if bounced else [Placed(uid)]
