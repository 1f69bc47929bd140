"""Lists say in their margin that lines are hidden above or below, and keep the highlight shown."""
from __future__ import annotations

from device.ui.layout import layout
from device.ui.menu import Menu
from device.ui.render import MARK_X, render
from device.ui.screen import Screen

ITEMS = [(str(n), f"Item {n}") for n in range(6)]


def test_a_menu_marks_hidden_lines_and_keeps_its_highlight_in_view():
    menu = Menu(list(ITEMS))
    screen = menu.on_screen(Screen("T"), ["Pick one"], 2)
    assert (screen.above, screen.below) == (False, True)
    for _ in range(3):
        menu.move(1)
    screen = menu.on_screen(Screen("T"), ["Pick one"], 2)
    assert screen.lines[screen.highlight] == "Item 3"
    assert (screen.above, screen.below) == (True, True)
    menu.move(1)
    screen = menu.on_screen(Screen("T"), ["Pick one"], 2)
    assert (screen.above, screen.below) == (True, False)
    assert layout(screen).text().splitlines()[2].endswith(" ^")


def test_the_marks_are_drawn_in_the_right_margin():
    plain = render(Screen("T", "", ("a", "b", "c", "d")))
    marked = render(Screen("T", "", ("a", "b", "c", "d"), above=True, below=True))
    column = [marked.getpixel((MARK_X + 2, y)) for y in range(64)]
    assert sum(column) >= 2
    assert not any(plain.getpixel((MARK_X + 2, y)) for y in range(12, 64))


def test_a_long_french_turn_menu_says_there_are_more_choices(tmp_path):
    from .table import SimTable
    table = SimTable(tmp_path, "fr")
    table.start("tamalou", "P1,P2,P3", first="P2")
    table.run("press select")
    table.run("tap 7C")
    table.run("wait 2")
    assert table.screen.menu is not None and table.screen.below
