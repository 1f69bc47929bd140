"""The admin menu a staff card opens in kiosk mode, and its screens.

"Fleet offline" first when the café's fleet link does not work (SELECT shows why), then
Abort game and House rules (while a game runs), Learn a deck (the walk of
`tabletop deck learn`, driven by taps on the reader), Brightness, Sound (with
a buzzer), Language, Restart service and Shut down (through the `system` machine).
Tapping a staff card again, BACK on the menu, or a long idle closes it.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, EndGame, NextLanguage, SetBrightness, Show, Switch
from device.decks.deck_file import DeckError, families
from device.decks.learning import Enrollment
from device.feedback import sound_switch, toggle_sound
from device.inputs import Tapped
from device.ui.app_view import AppView
from device.ui.modes import MenuMode, Mode
from device.ui.playing import Confirmation, RulesView
from device.ui.screen import BODY_LINES, Screen
from engine.core.text import msg

BRIGHTNESS = (("12", 32), ("25", 64), ("50", 128), ("100", 255))


def fleet_offline(app: AppView) -> str | None:
    """Why the table's fleet link does not work, from the fleet plugin if the table has one."""
    return next((why for why in (getattr(p, "offline_reason", None) for p in app.plugins) if why),
                None)


def admin_of(mode) -> AdminMenu | None:
    """The admin menu `mode` was opened from, following the `back_to` links, if any."""
    while mode is not None:
        if isinstance(mode, AdminMenu):
            return mode
        mode = getattr(mode, "back_to", None)
    return None


class AdminMenu(MenuMode):
    title_key = "kiosk.admin"

    def __init__(self, back_to: Mode, system, staff: str) -> None:
        super().__init__([], back_to=back_to)
        self.system, self.staff = system, staff

    def header(self, app: AppView) -> tuple[str, str]:
        return app.t(self.title_key), self.staff

    def entries(self, app: AppView) -> list[tuple[str, str]]:
        found = [("fleet", "fleet.offline")] if fleet_offline(app) else []
        found += [("abort", "ui.abort"), ("rules", "ui.house_rules")] if app.session else []
        found += [("learn", "kiosk.learn"), ("brightness", "kiosk.brightness")]
        switch = sound_switch(app)
        if switch is not None:
            found.append(("sound", "ui.sound_on" if switch.sound_on else "ui.sound_off"))
        return found + [("language", "ui.language"), ("restart", "kiosk.restart"),
                        ("shutdown", "kiosk.shutdown"), ("close", "kiosk.close")]

    def screen(self, app: AppView) -> Screen:
        self.menu.items = [(key, app.t(label)) for key, label in self.entries(app)]
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        if key == "fleet":
            return [Show.of(msg("fleet.offline_why", why=fleet_offline(app) or "-"), seconds=10)]
        if key == "abort":
            return [Switch(AdminConfirm(self, msg("ui.abort_confirm"), [EndGame(abandoned=True)]))]
        if key == "rules":
            return [Switch(RulesView(self))]
        if key == "learn":
            return [Switch(LearnChoice(self))]
        if key == "brightness":
            return [Switch(Brightness(self, app.brightness))]
        if key == "sound":
            toggle_sound(app)
            return NOTHING
        if key == "language":
            return [NextLanguage()]
        if key in ("restart", "shutdown"):
            return [Switch(SystemConfirm(self, key))]
        return self.leave(app)


def paged_screen(mode: Mode, app: AppView, text: str, right: str = "") -> Screen:
    """`text` under the admin header, a page at a time when it is longer than the screen."""
    lines, more = mode.paged(app, text, BODY_LINES)
    return Screen(app.t("kiosk.admin"), right, tuple(lines), more=len(lines) - 1 if more else None,
                  above=mode.later_page(app))


class AdminConfirm(Confirmation):
    """A yes/no question under the admin header (there may be no game to name)."""

    def screen(self, app: AppView) -> Screen:
        return paged_screen(self, app, app.t(self.question))


class SystemConfirm(AdminConfirm):
    """Restart the service or shut the machine down: asked of the system once SELECT says so."""

    def __init__(self, admin: AdminMenu, key: str) -> None:
        super().__init__(admin, msg(f"kiosk.{key}_confirm"))
        self.system, self.key = admin.system, key

    def confirmed(self) -> Actions:
        why = self.system.restart() if self.key == "restart" else self.system.poweroff()
        done = "kiosk.restarting" if self.key == "restart" else "kiosk.shutting_down"
        return [Show.of(msg(done) if why is None else msg("kiosk.failed", why=why), seconds=5)]


class Brightness(MenuMode):
    title_key = "kiosk.brightness"

    def __init__(self, back_to: Mode, current: int | None) -> None:
        super().__init__([(str(level), "") for _, level in BRIGHTNESS], back_to=back_to)
        self.current = current
        self.menu.select_key(str(BRIGHTNESS[-1][1] if current is None else current))

    def screen(self, app: AppView) -> Screen:
        self.menu.items = [(str(level), app.t("kiosk.percent_now" if level == self.current
                                              else "kiosk.percent", percent=percent))
                           for percent, level in BRIGHTNESS]
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        return [SetBrightness(int(key)), *self.leave(app)]


def own_decks(registry):
    """The state dir's registry: the simulator's built-in decks are never learnt."""
    return getattr(registry, "base", None) or registry


def deck_to_learn(registry, family: str) -> str:
    """The family's first incomplete deck, or a fresh name: `palourde`, `palourde-2`, ..."""
    decks = [d for d in registry.decks() if d.family == family]
    unfinished = [d.name for d in decks if not d.complete]
    if unfinished:
        return unfinished[0]
    taken = {d.name for d in registry.decks()}
    names = [family] + [f"{family}-{n}" for n in range(2, len(taken) + 3)]
    return next(name for name in names if name not in taken)


class LearnChoice(MenuMode):
    """Which family of deck to learn; each shows the deck the walk will fill."""

    title_key = "kiosk.learn"

    def __init__(self, back_to: Mode) -> None:
        super().__init__([], back_to=back_to)

    def screen(self, app: AppView) -> Screen:
        registry = own_decks(app.registry)
        self.prompt = app.t("kiosk.learn_which")
        self.menu.items = [(family, app.t("kiosk.learn_family", family=family,
                                          deck=deck_to_learn(registry, family)))
                           for family in families()]
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        registry = own_decks(app.registry)
        try:
            walk = Enrollment(registry, key, deck_to_learn(registry, key), app.language)
        except DeckError as exc:
            return [Show.of(msg("kiosk.failed", why=str(exc)))]
        assert self.back_to is not None       # opened from the admin menu
        return [Switch(LearnWalk(self.back_to, walk))]


class LearnWalk(Mode):
    """"Tap Clam 3/20": each tag tapped is enrolled at once; BACK stops (learning resumes later).
    The count of cards done stands in the header, so a long deck name or message pages
    without running the count into the card asked for."""

    def __init__(self, back_to: Mode, walk: Enrollment) -> None:
        self.back_to, self.walk = back_to, walk
        self.said = ""

    def screen(self, app: AppView) -> Screen:
        deck, asked, count = self.walk.prompt()
        text = "\n".join([deck, asked] + ([self.said] if self.said else []))
        return paged_screen(self, app, text, count)

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        _, self.said = self.walk.offer(tapped.uid)   # the walk enrols the tag in the state dir's decks
        return NOTHING

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "back" or (name == "select" and self.walk.done):
            return [Switch(self.back_to)]
        if name == "down":
            self.turn_page(app)
        return NOTHING
