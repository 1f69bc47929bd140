"""What reaches the event loop: the hardware's events, plus the device's own timers and faults."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hardware.events import (
    ButtonHeld,
    ButtonPressed,
    Placed,
    ReaderBack,
    ReaderCrowded,
    ReaderOffline,
    Removed,
)


@dataclass(frozen=True)
class PartStatus:
    """The display or the disk failed (`ok` False) or works again."""

    part: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class Tick:
    """Time passed: timers may be due."""


@dataclass(frozen=True)
class Tapped:
    """A tag placed on the reader, looked up once by the app: `ref` is the card or staff card it
    stands for, None when no deck knows it. Plugins and modes receive it as it is."""

    uid: str
    ref: Any


Input = (Placed | Tapped | Removed | ButtonPressed | ButtonHeld | ReaderCrowded | ReaderOffline
         | ReaderBack | PartStatus | Tick)

__all__ = ["ButtonHeld", "ButtonPressed", "Input", "PartStatus", "Placed", "ReaderBack",
           "ReaderCrowded", "ReaderOffline", "Removed", "Tapped", "Tick"]
