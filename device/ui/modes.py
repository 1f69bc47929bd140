"""The base of the UI modes: each mode builds its Screen and takes buttons and taps."""
from __future__ import annotations

from engine.core.text import msg

from .menu import Menu
from .screen import BODY_LINES, Screen, wrap


class Mode:
    def screen(self, app) -> Screen:
        raise NotImplementedError

    def button(self, app, name: str, held: bool) -> None:
        """Buttons do nothing unless a mode says otherwise."""

    def tap(self, app, uid: str, ref) -> None:
        """A tag while only buttons are expected."""
        if ref is None:
            app.show(msg("ui.unknown_card"))
        else:
            app.show(msg("core.use_buttons"))


class Page(Mode):
    """Read-only lines (scores, statistics): UP/DOWN scroll, any other button goes back,
    and a tap goes back and counts there."""

    def __init__(self, back_to: Mode) -> None:
        self.back_to = back_to
        self.top = 0

    def lines(self, app) -> list[str]:
        raise NotImplementedError

    def window(self, app) -> tuple[str, ...]:
        return tuple(self.lines(app)[self.top:self.top + BODY_LINES])

    def page(self, left: str, right: str, app) -> Screen:
        """The window's lines under a header, marked where lines are hidden above or below."""
        return Screen(left, right, self.window(app)).scrolled(
            self.top, BODY_LINES, len(self.lines(app)))

    def button(self, app, name: str, held: bool) -> None:
        if name == "down" and self.top + BODY_LINES < len(self.lines(app)):
            self.top += 1
        elif name == "up" and self.top > 0:
            self.top -= 1
        else:
            app.set_mode(self.back_to)

    def tap(self, app, uid: str, ref) -> None:
        app.set_mode(self.back_to)
        self.back_to.tap(app, uid, ref)


class MenuMode(Mode):
    """A mode that is a titled menu: UP/DOWN move, SELECT takes, BACK leaves."""

    title_key = "ui.title"

    def __init__(self, items: list[tuple[str, str]], prompt: str = "",
                 back_to: Mode | None = None) -> None:
        self.menu = Menu(items)
        self.prompt = prompt
        self.back_to = back_to

    def header(self, app) -> tuple[str, str]:
        return app.t(self.title_key), ""

    def screen(self, app) -> Screen:
        top = wrap(self.prompt)[:BODY_LINES - 1] if self.prompt else []
        left, right = self.header(app)
        return self.menu.on_screen(Screen(left, right), top, BODY_LINES - len(top))

    def button(self, app, name: str, held: bool) -> None:
        if name == "up":
            self.menu.move(-1)
        elif name == "down":
            self.menu.move(1)
        elif name == "select" and self.menu.key is not None:
            self.take(app, self.menu.key)
        elif name == "back":
            self.leave(app)

    def take(self, app, key: str) -> None:
        raise NotImplementedError

    def leave(self, app) -> None:
        """BACK: to the mode this menu was opened from (the top menus have none)."""
        if self.back_to is not None:
            app.set_mode(self.back_to)
