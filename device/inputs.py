"""What reaches the event loop: the hardware's events, plus the device's own timers and faults."""
from __future__ import annotations

from dataclasses import dataclass

from hardware.events import (ButtonHeld, ButtonPressed, Placed, ReaderBack, ReaderOffline,
                             Removed)


@dataclass(frozen=True)
class PartStatus:
    """The display or the disk failed (`ok` False) or works again."""

    part: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class Tick:
    """Time passed: timers may be due."""


Input = (Placed | Removed | ButtonPressed | ButtonHeld | ReaderOffline | ReaderBack | PartStatus
         | Tick)

__all__ = ["ButtonHeld", "ButtonPressed", "Input", "PartStatus", "Placed", "ReaderBack",
           "ReaderOffline", "Removed", "Tick"]
