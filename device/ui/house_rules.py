"""House rules as the menus show them: a readable name and value in the table's language.

Option keys and values stay what scripts and the journal use (`storm_ends_turn=true`);
only the screen names them ("Storm ends turn  on", "Tempête stoppe  oui").
"""
from __future__ import annotations

from engine.core.text import DEFAULT_LANGUAGE, Msg, catalog, msg

from .app_view import AppView
from .screen import MENU_COLUMNS

# A menu's line, less the last column, where a scroll mark may sit: values line up whether
# their line is marked or not.
OPTION_COLUMNS = MENU_COLUMNS - 1


def option_line(app: AppView, key: str, value) -> str:
    """The option's name, then its value flush right, both whole: a name and value longer than
    the line are the catalog's to shorten by hand, and the display's layout names the cut."""
    name = app.t(option_name(key))
    return f"{name} {app.t(value_name(value)):>{OPTION_COLUMNS - len(name) - 1}}"


class OptionLines:
    """A menu's option lines, each worked out once for its language and value: the menu redraws
    every line at each press, and one line changes at most."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str, type, object], str] = {}

    def line(self, app: AppView, key: str, value) -> str:
        said = app.language, key, type(value), value         # True is not 1: "on" is not "1"
        if said not in self._lines:
            self._lines[said] = option_line(app, key, value)
        return self._lines[said]


def option_name(key: str) -> Msg:
    return _known(f"opt.{key}") or msg("core.name", name=key)


def value_name(value: object) -> Msg:
    """on/off, a choice's name, `rounds:3` as "3 rounds"; numbers and unnamed text as they are."""
    if isinstance(value, bool):
        return msg("opt.on" if value else "opt.off")
    kind, _, number = str(value).partition(":")
    if number:
        return _known(f"opt.value.{kind}", n=number) or msg("core.name", name=value)
    return _known(f"opt.value.{value}") or msg("core.name", name=value)


def _known(key: str, **args) -> Msg | None:
    return msg(key, **args) if key in catalog(DEFAULT_LANGUAGE) else None
