"""What a mode or a plugin wants done, as data: the app carries it out.

A mode reads the table to build its screen and to decide, but never changes the app: it
returns these, and `Companion.apply` does them in order. So a tap goes one way: input, the
mode's decision, the app's change, the screen.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from device.inputs import Tapped
from device.ui.screen import Screen
from engine import Session
from engine.core.events import Event
from engine.core.text import Msg

MESSAGE_SECONDS = 2.0


class ModeProtocol(Protocol):
    """What the app asks of its current mode: what the table shows, and how it takes buttons
    and taps. Every mode meets it (they are built on device/ui/modes.py's Mode); it is named
    here, below the modes, since they return these actions and the actions name a mode."""

    def screen(self, app) -> Screen: ...

    def button(self, app, name: str, held: bool) -> Actions: ...

    def tap(self, app, tapped: Tapped) -> Actions: ...

    def deadline(self, app) -> float | None: ...

    def knows(self, uid: str) -> bool: ...

    def answered_by(self, app, button: str) -> bool: ...


@dataclass(frozen=True)
class Show:
    """Messages over the current mode, for `seconds` a page (or until a button)."""

    messages: tuple[Msg, ...]
    seconds: float = MESSAGE_SECONDS

    @classmethod
    def of(cls, *messages: Msg, seconds: float = MESSAGE_SECONDS) -> Show:
        return cls(messages, seconds)


@dataclass(frozen=True)
class Switch:
    """The table shows this mode next."""

    mode: ModeProtocol


@dataclass(frozen=True)
class Home:
    """Back to the game select, as the table rests between games."""


@dataclass(frozen=True)
class Play:
    """The event goes to the engine. `then`: the mode once it is taken and the game goes on
    (None: a fresh Playing); a result always shows the result."""

    event: Event
    then: ModeProtocol | None = None


@dataclass(frozen=True)
class Undo:
    """The last input is taken back."""


@dataclass(frozen=True)
class Redo:
    """The input last taken back is played again (a script's or the simulator's `redo`)."""


@dataclass(frozen=True)
class StartGame:
    session: Session
    deck: str | None


@dataclass(frozen=True)
class EndGame:
    """The game is archived (`abandoned` when nobody won), and the table goes home."""

    abandoned: bool


@dataclass(frozen=True)
class NextLanguage:
    """The menus' Language item: the next language, at once, and remembered."""


@dataclass(frozen=True)
class SetLanguage:
    """The café's language for this table, at once, and remembered like the menu's choice."""

    language: str


@dataclass(frozen=True)
class SetBrightness:
    """Staff chose the panel's contrast over the config's."""

    level: int


@dataclass(frozen=True)
class Dismiss:
    """The messages over the mode go, unread pages included."""


@dataclass(frozen=True)
class Fault:
    """A part beside the game (the fleet link) fails with `message` in the header, or works
    again (None)."""

    part: str
    message: Msg | None


@dataclass(frozen=True)
class Offer:
    """The café's roster changed (a name added from the page): a setup naming its seats
    reads it again and offers its names at once."""


Action = (Show | Switch | Home | Play | Undo | Redo | StartGame | EndGame | NextLanguage
          | SetLanguage | SetBrightness | Dismiss | Fault | Offer)
Actions = Sequence[Action]
NOTHING: Actions = ()

