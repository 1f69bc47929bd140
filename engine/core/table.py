"""What every game's state holds, declared once: each game's frozen State extends Table.

The canonical JSON sorts its keys (codec.py), so declaring these fields in a
base class leaves every state's encoding, and so its hash, as it was.
"""
from __future__ import annotations

from typing import TypeVar

from .options import Options
from .record import record


@record
class Table:
    seq: int                    # accepted events so far; step() counts them
    phase: str                  # the game's own phase names
    options: Options            # the house rules this game started with
    seats: tuple[str, ...]      # the players' names, clockwise
    current: str | None         # who the prompt addresses; None before anyone does

    @property
    def to_play(self) -> str:
        """`current` where the rules know someone is asked: a phase past the table's setup."""
        return given(self.current)


T = TypeVar("T")


def given(value: T | None) -> T:
    """A state field that the phase at hand always has set (who is asked, the card being
    resolved); None there is a bug in the rules, never something a player did."""
    if value is None:
        raise AssertionError("a field this phase needs is not set")
    return value
