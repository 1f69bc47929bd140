"""Kiosk mode for a café table: the game select to start, an attract screen, staff-only admin.

With `[kiosk] enabled = true` the table looks after itself between groups:

- A game left alone for `attract_after_s` gives way to "Still playing?" with
  Resume game and New game; a finished game goes back to the game select, and
  so does a setup nobody finished.
- Players keep what they need (Scores and Undo last in the hold-SELECT menu,
  hold BACK to undo); aborting a game, the house rules and the sound belong to
  the admin menu, which only a staff card opens (`tabletop deck staff add`).

OLED care (device/screen_care.py) runs with or without kiosk mode.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (registers the texts shown below)
from device.config import KioskConfig
from device.decks.registry import StaffRef
from device.inputs import Tapped
from device.plugin import Plugin
from device.ui.game_select import GameSelect
from device.ui.modes import MenuMode
from device.ui.playing import Confirmation, Playing, header
from engine.core.text import msg

from .admin import AdminMenu, admin_of
from .screen_care import ScreenCare

STAFF_ONLY = frozenset({"rules", "abort", "sound"})


def attach(app, kiosk: KioskConfig, system) -> None:
    """OLED care always; kiosk mode and its staff-only menus when the config turns it on."""
    app.plugins.append(ScreenCare(kiosk))
    if kiosk.enabled:
        app.plugins.append(Kiosk(kiosk, system))
        app.staff_only = STAFF_ONLY


class Kiosk(Plugin):
    def __init__(self, kiosk: KioskConfig, system) -> None:
        self.attract_after = kiosk.attract_after_s
        self.system = system

    def on_input(self, app, event) -> bool:
        if not isinstance(event, Tapped) or not isinstance(event.ref, StaffRef):
            return False
        app.overlay = None
        admin = admin_of(app.mode)            # a second tap of a staff card closes the menu
        app.set_mode(admin.back_to if admin else AdminMenu(app.mode, self.system, event.ref.label))
        return True

    def deadline(self, app) -> float | None:
        if not self.attract_after or self._on_idle(app) is None:
            return None
        return app.last_input + self.attract_after

    def tick(self, app) -> None:
        if self.attract_after and app.clock() - app.last_input >= self.attract_after:
            action = self._on_idle(app)
            if action is not None:
                action()

    def _on_idle(self, app):
        """What a long idle does here, or None when the table is already where it rests."""
        if app.session is not None and app.session.spec.result(app.session.state) is None:
            return None if isinstance(app.mode, Attract) else lambda: app.set_mode(Attract())
        if app.session is not None:
            return lambda: app.end_game(abandoned=False)
        return None if isinstance(app.mode, GameSelect) else lambda: app.set_mode(GameSelect())


class Attract(MenuMode):
    """A game nobody has touched for a while: "Still playing?" Resume game / New game."""

    def __init__(self) -> None:
        super().__init__([("resume", ""), ("new", "")])

    def header(self, app) -> tuple[str, str]:
        return header(app)

    def screen(self, app):
        self.prompt = app.t("kiosk.attract")
        self.menu.items = [("resume", app.t("kiosk.resume")), ("new", app.t("kiosk.new_game"))]
        return super().screen(app)

    def take(self, app, key: str) -> None:
        if key == "resume":
            app.set_mode(Playing())
        else:
            app.set_mode(Confirmation(self, msg("kiosk.new_confirm"),
                                      lambda: app.end_game(abandoned=True)))
