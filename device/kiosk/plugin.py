"""Kiosk mode for a café table: the game select to start, an attract screen, staff-only admin.

With `[kiosk] enabled = true` the table looks after itself between groups:

- A game left alone for `attract_after_s` gives way to "Still playing?" with
  Resume game and New game; a finished game goes back to the game select, and
  so does a setup nobody finished.
- Players keep what they need (Scores and Undo last in the hold-SELECT menu,
  hold BACK to undo); aborting a game, the house rules and the sound belong to
  the admin menu, which only a staff card opens (`tabletop deck staff add`).

OLED care (device/kiosk/screen_care.py) runs with or without kiosk mode.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Dismiss, EndGame, Home, Switch
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


def kiosk_plugins(kiosk: KioskConfig, system) -> list[Plugin]:
    """OLED care always; kiosk mode and its staff-only menus when the config turns it on."""
    return [ScreenCare(kiosk), *([Kiosk(kiosk, system)] if kiosk.enabled else [])]


class Kiosk(Plugin):
    order = 40            # after the set-aside notice: the notice stands over the admin menu
    staff_only = STAFF_ONLY   # aborting, the house rules and the sound: in the admin menu

    def __init__(self, kiosk: KioskConfig, system) -> None:
        self.attract_after = kiosk.attract_after_s
        self.system = system

    def on_input(self, app, event) -> Actions | None:
        if not isinstance(event, Tapped) or not isinstance(event.ref, StaffRef):
            return None
        admin = admin_of(app.mode)            # a second tap of a staff card closes the menu
        if admin is not None and admin.back_to is not None:
            return [Dismiss(), Switch(admin.back_to)]
        return [Dismiss(), Switch(AdminMenu(app.mode, self.system, event.ref.label))]

    def deadline(self, app) -> float | None:
        if not self.attract_after or self._on_idle(app) is None:
            return None
        return app.last_input + self.attract_after

    def tick(self, app) -> Actions:
        if self.attract_after and app.clock.monotonic() - app.last_input >= self.attract_after:
            return self._on_idle(app) or NOTHING
        return NOTHING

    def _on_idle(self, app) -> Actions | None:
        """What a long idle does here, or None when the table is already where it rests."""
        if app.session is not None and app.session.spec.result(app.session.state) is None:
            return None if isinstance(app.mode, Attract) else [Switch(Attract())]
        if app.session is not None:
            return [EndGame(abandoned=False)]
        return None if isinstance(app.mode, GameSelect) else [Home()]


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

    def take(self, app, key: str) -> Actions:
        if key == "resume":
            return [Switch(Playing())]
        return [Switch(Confirmation(self, msg("kiosk.new_confirm"), [EndGame(abandoned=True)]))]
