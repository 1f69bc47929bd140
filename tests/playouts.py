"""The picks of seeded random games played through the app, kept for the run.

Tests play the same game more than once: the same rules, players and seed, each time in
another language or with other checks (tests/device/test_screens_fit.py and
test_web_texts.py). The first to play it picks each event at random among the legal ones, as
the bench's table does; the others play the same picks, which make the same game (the rules
are pure), without working out the legal events of every state again: the most costly part
of a game in the tests. The app still takes each pick as a player would, and the bench's
table still checks that it was taken. Only a game played to its end is kept.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from engine import Event

Game = tuple[str, tuple[str, ...], int]           # the game's id, its players, the seed

_PICKS: dict[Game, tuple[Event, ...]] = {}


class Picks:
    """The picks of one game: those kept where it was played before, else made and kept."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kept = _PICKS.get(game)
        self.made: list[Event] = []

    def next(self, rng: random.Random, legal: Callable[[], list[Event]]) -> Event:
        event = self.kept[len(self.made)] if self.kept is not None else rng.choice(legal())
        self.made.append(event)
        return event

    def ended(self) -> None:
        """The game is over: its picks are kept for the next to play it."""
        _PICKS.setdefault(self.game, tuple(self.made))
