"""How the parts around the game plug into the app: kiosk timers, screen care, sounds, the fleet.

The app core knows only this interface; which plugins a table has is chosen from its
configuration (device.table). A plugin hears every input before the app does, the outcome of
every game input after the engine answered, and time passing; it has the last word on the screen.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Accepted, Info, Rejected
from engine.core.events import Event


@dataclass(frozen=True)
class Outcome:
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

    def start(self, app) -> None:
        """The table is assembled and its game resumed or started: before its first input."""

    def on_input(self, app, event) -> bool:
        """Before the app sees an input (a tap comes looked up, as `Tapped`); True keeps it from
        the app."""
        return False

    def on_outcome(self, app, outcome: Outcome) -> None:
        """After the engine answered a game input, and the journal kept it if accepted."""

    def after_input(self, app) -> None:
        """The input (or the tick) has been dealt with: the table is as it will be shown."""

    def deadline(self, app) -> float | None:
        """When this plugin next wants `tick` (clock seconds), or None."""
        return None

    def tick(self, app) -> None:
        """Time passed; due timers fire."""

    def screen(self, app, screen):
        """The last say on what the display shows (dim, screensaver, attract)."""
        return screen

    def close(self) -> None:
        """The table stops: let go of the plugin's parts and connections."""
