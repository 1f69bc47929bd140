"""What every game's state holds, declared once: each game's frozen State extends Table.

The canonical JSON sorts its keys (codec.py), so declaring these fields in a
base class leaves every state's encoding, and so its hash, as it was.
"""
from __future__ import annotations

from dataclasses import dataclass

from .options import Options


@dataclass(frozen=True, slots=True)
class Table:
    seq: int                    # accepted events so far; step() counts them
    phase: str                  # the game's own phase names
    options: Options            # the house rules this game started with
    seats: tuple[str, ...]      # the players' names, clockwise
    current: str | None         # who the prompt addresses; None before anyone does
