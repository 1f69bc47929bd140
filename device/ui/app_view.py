"""What a mode reads of the app, and all it reads: the table's words and clock, the running game
and what it shows, its decks, store and plugins. The app hands its modes itself as this view,
and mypy holds both to it: a mode that reaches for more, or an app that stops offering it, is a
type error. A mode changes none of it; what it wants done it returns as actions."""
from __future__ import annotations

from typing import Any, Protocol

from device.clock import Clock
from device.decks.registry import DeckRegistry
from device.plugin import Plugin, Reading
from device.storage.store import GameStore
from engine import Prompt, Session, Tally
from engine.core.text import Msg

from .overlay import Recall


class AppView(Protocol):
    @property
    def language(self) -> str: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def session(self) -> Session | None: ...

    @property
    def deck(self) -> str | None: ...

    @property
    def registry(self) -> DeckRegistry: ...

    @property
    def store(self) -> GameStore: ...

    @property
    def recall(self) -> Recall: ...

    @property
    def plugins(self) -> tuple[Plugin, ...]: ...

    @property
    def staff_only(self) -> frozenset[str]: ...

    @property
    def brightness(self) -> int | None: ...

    def t(self, message: Msg | str, **args: Any) -> str:
        """A message's text in the table's language."""

    def game(self) -> Session:
        """The running game (a mode of a game only)."""

    def view(self) -> tuple[Prompt, Tally]:
        """The running game's prompt and tally now."""

    def reading(self) -> Reading:
        """The running game's prompts and tallies, a state at a time."""
