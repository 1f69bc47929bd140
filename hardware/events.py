"""Events the hardware layer pushes to the device, one small value each.

They go into a callback (usually ``queue.Queue.put``) from the reader or button
threads; the device handles them on its own loop.
"""
from __future__ import annotations

from dataclasses import dataclass

UP, DOWN, SELECT, BACK = "UP", "DOWN", "SELECT", "BACK"
BUTTON_NAMES = (UP, DOWN, SELECT, BACK)


@dataclass(frozen=True, slots=True)
class Placed:
    """A card arrived on the reader: one tap, however long it stays."""
    uid: str


@dataclass(frozen=True, slots=True)
class Removed:
    """The card left the reader (after the configured number of missed polls)."""
    uid: str


@dataclass(frozen=True, slots=True)
class ReaderCrowded:
    """Cards on the reader answered together and could not be told apart: the
    table is asked to lay one card at a time. Sent once a spell: a spell ends
    when a card is read cleanly or after a few empty polls."""


@dataclass(frozen=True, slots=True)
class ReaderOffline:
    """Polls keep failing; the loop retries with backoff. `reason` is the last error."""
    reason: str


@dataclass(frozen=True, slots=True)
class ReaderBack:
    """The reader answers again after a `ReaderOffline`."""


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A short press of UP, DOWN, SELECT or BACK."""
    name: str


@dataclass(frozen=True, slots=True)
class ButtonHeld:
    """A long press: the button stayed down for the hold time."""
    name: str


@dataclass(frozen=True, slots=True)
class ButtonStuck:
    """UP or DOWN has been held so long it is taken as stuck (`stuck`), and stopped
    repeating; or it was released again (`stuck` False) and works as before."""
    name: str
    stuck: bool = True


HardwareEvent = (Placed | Removed | ReaderCrowded | ReaderOffline | ReaderBack | ButtonPressed
                 | ButtonHeld | ButtonStuck)
