"""The base of the UI modes: each mode builds its Screen and takes buttons and taps.

A mode reads the table (the app) to build its screen and to decide what an input means, and
returns what is to be done as actions (device/actions.py): it never changes the app itself.
"""
from __future__ import annotations

from dataclasses import replace

from device.actions import NOTHING, Actions, Show, Switch
from device.decks.registry import CardRef
from device.inputs import Tapped
from engine.core.spec import GameSpec
from engine.core.text import Msg, msg

from .app_view import AppView
from .menu import Menu
from .paging import Pager, pages
from .screen import BODY_LINES, Screen


def refusal(ref, spec: GameSpec | None = None, deck: str | None = None) -> Msg | None:
    """Why a tag is no card for this game, or None: no deck knows it, it is a staff card, or
    it is of the game's family but of another physical deck than the one the game is played
    with (docs/rules.md, "At every table"). Every mode that takes cards asks here."""
    if ref is None:
        return msg("ui.unknown_card")
    if not isinstance(ref, CardRef):
        return msg("ui.staff_card")
    if spec is not None and deck is not None and ref.family == spec.deck and ref.deck != deck:
        return msg("ui.wrong_deck")
    return None


class Mode:
    pager: Pager | None = None          # a text longer than its place, shown a page at a time

    def screen(self, app: AppView) -> Screen:
        raise NotImplementedError

    def paged(self, app: AppView, text: str, room: int) -> tuple[list[str], bool]:
        """The page of `text` shown now in `room` lines, and whether more of it follows."""
        if self.pager is None:
            self.pager = Pager()
        return self.pager.page(text, room, app.clock.monotonic())

    def later_page(self, app: AppView) -> bool:
        """Is the page shown of a paged text one after its first?"""
        return self.pager is not None and self.pager.later(app.clock.monotonic())

    def turn_page(self, app: AppView) -> bool:
        """DOWN on a paged text: its next page; False when none follows."""
        return self.pager is not None and self.pager.turn(app.clock.monotonic())

    def page_button(self, app: AppView, name: str) -> None:
        """UP and DOWN on a screen that is a paged text and nothing more: DOWN turns its page,
        UP reads it from the first page again."""
        if name == "down":
            self.turn_page(app)
        elif name == "up":
            self.pager = None

    def answered_by(self, app, button: str) -> bool:
        """Is this press the one answer the screen asks for ("SELECT when done"), so that a
        message over it does not keep it? Only a game's plain prompt says so."""
        return False

    def knows(self, uid: str) -> bool:
        """Is this tag, unknown to every deck, one this mode takes (a player's card)?"""
        return False

    def deadline(self, app: AppView) -> float | None:
        """When the screen changes by itself: a paged text's next page."""
        return None if self.pager is None else self.pager.deadline(app.clock.monotonic())

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        """Buttons do nothing unless a mode says otherwise."""
        return NOTHING

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        """A tag while only buttons are expected."""
        return [Show.of(msg("ui.unknown_card") if tapped.ref is None else msg("core.use_buttons"))]


class Page(Mode):
    """Read-only lines (scores, statistics): UP/DOWN scroll, any other button goes back,
    and a tap goes back and counts there."""

    def __init__(self, back_to: Mode) -> None:
        self.back_to = back_to
        self.top = 0

    def lines(self, app: AppView) -> list[str]:
        raise NotImplementedError

    def window(self, app: AppView) -> tuple[str, ...]:
        return tuple(self.lines(app)[self.top:self.top + BODY_LINES])

    def page(self, left: str, right: str, app) -> Screen:
        """The window's lines under a header, marked where lines are hidden above or below."""
        return Screen(left, right, self.window(app)).scrolled(
            self.top, BODY_LINES, len(self.lines(app)))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "down" and self.top + BODY_LINES < len(self.lines(app)):
            self.top += 1
        elif name == "up" and self.top > 0:
            self.top -= 1
        else:
            return [Switch(self.back_to)]
        return NOTHING

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        return [Switch(self.back_to), *self.back_to.tap(app, tapped)]


TEXT_ROOM = BODY_LINES - 1       # a text above a menu: the menu keeps a line at least
PAGED_ROOM = BODY_LINES - 2      # ... and two while the text turns its pages


def above_menu(mode: Mode, app, screen: Screen, text: str, menu: Menu,
               room: int = TEXT_ROOM) -> Screen:
    """`text` over `menu`: whole in up to `room` lines, else a page at a time in fewer, the
    page's last line marked while more follows; the menu scrolls in the lines left."""
    if not text:
        return menu.on_screen(screen, [], BODY_LINES)
    if len(pages(text, room)) > 1:     # paged: the menu keeps two lines, if it has two
        room = min(room, max(PAGED_ROOM, BODY_LINES - len(menu.items)))
    top, more = mode.paged(app, text, room)
    shown = menu.on_screen(screen, top, BODY_LINES - len(top))
    return replace(shown, more=len(top) - 1) if more else shown


class MenuMode(Mode):
    """A mode that is a titled menu: UP/DOWN move, SELECT takes, BACK leaves."""

    title_key = "ui.title"

    def __init__(self, items: list[tuple[str, str]], prompt: str = "",
                 back_to: Mode | None = None) -> None:
        self.menu = Menu(items)
        self.prompt = prompt
        self.back_to = back_to

    def header(self, app: AppView) -> tuple[str, str]:
        return app.t(self.title_key), ""

    def screen(self, app: AppView) -> Screen:
        left, right = self.header(app)
        return above_menu(self, app, Screen(left, right), self.prompt, self.menu)

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "up":
            self.menu.move(-1)
        elif name == "down":
            self.menu.move(1)
        elif name == "select" and self.menu.key is not None:
            return self.take(app, self.menu.key)
        elif name == "back":
            return self.leave(app)
        return NOTHING

    def take(self, app: AppView, key: str) -> Actions:
        raise NotImplementedError

    def leave(self, app: AppView) -> Actions:
        """BACK: to the mode this menu was opened from (the top menus have none)."""
        return NOTHING if self.back_to is None else [Switch(self.back_to)]
