"""Idle: the game select menu, and the offer made when a known card is tapped."""
from __future__ import annotations

import engine
from device.actions import Actions, Home, NextLanguage, Show, Switch
from device.inputs import Tapped
from device.storage.seats import last_game
from engine.core.spec import GameSpec

from .app_view import AppView
from .game_view import menu_name
from .modes import MenuMode, refusal
from .screen import BODY_LINES, Screen
from .wizard import begin_setup


def games() -> list[GameSpec]:
    """The registered games in the menu order their specs declare."""
    return sorted(engine.all_specs(), key=lambda spec: spec.order)


LANGUAGE_KEY = "__language__"


class GameSelect(MenuMode):
    """Kiosk start: pick a game, or tap any card of a registered deck; the last item switches
    the table's language. The highlight opens on the last game set up by the menus, so that
    the same players again are SELECT, "Same players" (and "Start game" where the game has
    house rules) away, in every game, not only the menu's first."""

    def __init__(self) -> None:
        super().__init__([(spec.id, "") for spec in games()] + [(LANGUAGE_KEY, "")])
        self.placed = False

    def place(self, app: AppView) -> None:
        """Once, before the first screen or press: the highlight on the last game played."""
        if not self.placed:
            self.placed = True
            self.menu.select_key(last_game(app.store.dir) or "")

    def header(self, app: AppView):
        return app.t("ui.title"), app.clock.wall()[11:16]

    def screen(self, app: AppView):
        self.place(app)
        self.menu.items = [(spec.id, app.t(menu_name(spec))) for spec in games()] + \
            [(LANGUAGE_KEY, app.t("ui.language"))]
        left, right = self.header(app)
        return self.menu.on_screen(Screen(left, right), [], BODY_LINES - 1,
                                   (app.t("ui.tap_to_start"),))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        self.place(app)
        return super().button(app, name, held)

    def take(self, app: AppView, key: str) -> Actions:
        if key == LANGUAGE_KEY:
            return [NextLanguage()]
        return begin_setup(app, next(spec for spec in games() if spec.id == key))

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        why = refusal(tapped.ref)
        return [Show.of(why)] if why is not None else [Switch(OfferGame(tapped.ref.family, tapped.ref.deck))]


class OfferGame(MenuMode):
    """"Start <game> with deck <deck>?" — the pirates deck offers both of its games."""

    def __init__(self, family: str, deck: str) -> None:
        self.specs = [spec for spec in games() if spec.deck == family]
        super().__init__([(spec.id, "") for spec in self.specs] + [("cancel", "")], "")
        self.deck = deck

    def screen(self, app: AppView):
        self.menu.items = [(spec.id, app.t(menu_name(spec))) for spec in self.specs] + \
            [("cancel", app.t("ui.cancel"))]
        self.prompt = app.t("ui.offer", deck=self.deck)
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        if key == "cancel":
            return [Home()]
        return begin_setup(app, next(spec for spec in self.specs if spec.id == key), self.deck)

    def leave(self, app: AppView) -> Actions:
        return [Home()]
