"""A press does what the screen's words say: a message that names a button gives way to it,
so one press both clears the message and does what it asked; a message that asks for
nothing only turns its page."""
from __future__ import annotations

import string

import pytest

from device.ui.modes import Mode
from device.ui.overlay import BUTTON_WORD
from engine.core.text import Msg, catalog, forms

from .table import SimTable


class Recording(Mode):
    """A mode that only notes the buttons it is given."""

    def __init__(self) -> None:
        self.pressed: list[str] = []

    def screen(self, app):
        from device.ui.screen import Screen
        return Screen("T")

    def button(self, app, name: str, held: bool):
        self.pressed.append(name)
        return ()


class Blank(dict):
    def __missing__(self, key: str) -> str:
        return "x"


def _fields(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def naming_messages() -> list[tuple[str, str, str]]:
    """(language, key, button) for every catalog text that names a button."""
    found = []
    for language in ("en", "fr"):
        for key, template in sorted(catalog(language).items()):
            text = "\n".join(form.format_map(Blank({f: "x" for f in _fields(form)}))
                             for form in forms(template))
            for button in sorted(set(BUTTON_WORD.findall(text))):
                found.append((language, key, button))
    return found


MESSAGES = naming_messages()


def test_the_games_have_messages_that_name_buttons():
    keys = {key for _, key, _ in MESSAGES}
    assert {"pa.storm_select", "tm.hint.power", "fl.hint.sure"} <= keys


@pytest.mark.parametrize("language,key,button", MESSAGES)
def test_one_press_of_the_named_button_clears_the_message_and_does_it(tmp_path, language,
                                                                         key, button):
    table = SimTable(tmp_path, language)
    mode = Recording()
    table.app.set_mode(mode)
    fields = {f for form in forms(catalog(language)[key]) for f in _fields(form)}
    table.app.show(Msg(key, tuple((f, "x") for f in sorted(fields))))
    assert table.app.overlay is not None
    table.run(f"press {button.lower()}")
    assert table.app.overlay is None
    assert mode.pressed == [button.lower()]


def test_a_press_on_a_message_that_asks_nothing_only_dismisses_it(tmp_path):
    table = SimTable(tmp_path)
    mode = Recording()
    table.app.set_mode(mode)
    table.app.show(Msg("ui.aborted"))
    table.run("press select")
    assert table.app.overlay is None and mode.pressed == []
