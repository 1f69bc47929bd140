"""How the parts around the game plug into the app: kiosk timers, screen care, sounds, the fleet.

The app core knows only this interface; which plugins a table has is chosen from its
configuration (device.assembly). A plugin hears every input before the app does, the outcome of
every game input after the engine answered, and time passing; it has the last word on the screen.
Like a mode, a plugin never changes the app: what it wants done it returns as actions
(device/actions.py), which the app carries out. Each plugin declares its `order`: the app asks
them lowest first, and a later one has the last word on the screen.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Accepted, Info, Prompt, Rejected, Tally
from engine.core.events import Event

from .actions import NOTHING, Actions


class Reading:
    """The prompt and tally of a game's states, each worked out once a state and kept for the
    last few: an input's outcome, the app, its plugins and the frame after it read the same
    ones (a state never changes, so neither do they)."""

    KEPT = 3                # the state after an input, the one before it, and one more undone

    def __init__(self, spec) -> None:
        self.spec = spec
        self._kept: list[tuple[Any, dict[str, Any]]] = []

    def prompt(self, state) -> Prompt:
        return self._of(state, "prompt", self.spec.prompt)

    def tally(self, state) -> Tally:
        return self._of(state, "tally", self.spec.tally)

    def _of(self, state, what: str, work) -> Any:
        known = next((found for seen, found in self._kept if seen is state), None)
        if known is None:
            known = {}
            self._kept = [(state, known), *self._kept[:self.KEPT - 1]]
        if what not in known:
            known[what] = work(state)
        return known[what]


@dataclass(frozen=True)
class Answered:
    """What one game input did: the operation ("event" or "undo"), the input event (None for an
    undo), the engine's answer, and the game states before and after (the same unless accepted)."""

    op: str
    event: Event | None
    answer: Accepted | Rejected | Info
    before: Any
    after: Any

    @property
    def accepted(self) -> bool:
        return isinstance(self.answer, Accepted)


class Plugin:
    """A part of the appliance that watches the app. Every hook has a do-nothing default, so a
    plugin overrides only what it needs."""

    order = 100      # where the app puts it among the others: lowest first; the table's own below
    staff_only: frozenset[str] = frozenset()     # global menu items it keeps for staff cards

    def start(self, app) -> None:
        """The table is assembled and its game resumed or started: before its first input."""

    def on_input(self, app, event) -> Actions | None:
        """Before the app sees an input (a tap comes looked up, as `Tapped`). None lets it
        through; actions, even none, keep it from the app and the plugins after this one."""
        return None

    def on_outcome(self, app, outcome: Answered) -> None:
        """After the engine answered a game input, and the journal kept it if accepted."""

    def after_input(self, app) -> None:
        """The input (or the tick) has been dealt with: the table is as it will be shown."""

    def deadline(self, app) -> float | None:
        """When this plugin next wants `tick` (clock seconds), or None."""
        return None

    def tick(self, app) -> Actions:
        """Time passed; due timers fire."""
        return NOTHING

    def screen(self, app, screen):
        """The last say on what the display shows (dim, screensaver, attract)."""
        return screen

    def display_level(self, app) -> str | None:
        """The panel's contrast this plugin asks for (normal, dim, off), or None."""
        return None

    def close(self) -> None:
        """The table stops: let go of the plugin's parts and connections."""
