"""A menu longer than its lines turns a page at a time: a move inside the page shown moves only
the highlight's marker, so the display sends two glyphs rather than every line of the menu."""
from __future__ import annotations

from device.ui.menu import Menu
from device.ui.render import render
from device.ui.screen import Screen
from hardware.pages import pack_pages, page_writes

ITEMS = [(str(n), f"Player {n}") for n in range(5)]


def shown(menu: Menu, rows: int = 2) -> Screen:
    return menu.on_screen(Screen("GAME"), ["Who discarded?"], rows)


def test_the_lines_shown_are_whole_pages_and_the_last_page_is_full():
    menu = Menu(list(ITEMS))
    windows = []
    for _ in ITEMS:
        screen = shown(menu)
        windows.append((screen.lines[1:], screen.lines[screen.highlight]))
        menu.move(1)
    assert windows == [
        (("Player 0", "Player 1"), "Player 0"),
        (("Player 0", "Player 1"), "Player 1"),
        (("Player 2", "Player 3"), "Player 2"),
        (("Player 2", "Player 3"), "Player 3"),
        (("Player 3", "Player 4"), "Player 4"),       # the last page keeps both lines filled
    ]


def test_up_goes_back_through_the_same_pages():
    menu = Menu(list(ITEMS), index=3)
    assert shown(menu).lines[1:] == ("Player 2", "Player 3")
    menu.move(-1)
    assert shown(menu).lines[1:] == ("Player 2", "Player 3")
    menu.move(-1)
    assert shown(menu).lines[1:] == ("Player 0", "Player 1")
    menu.move(-2)                                        # past the first, round to the end
    assert shown(menu).lines[1:] == ("Player 3", "Player 4")


def test_a_move_inside_a_page_sends_only_the_marker_column():
    menu = Menu(list(ITEMS), index=2)
    before = pack_pages(render(shown(menu)))
    menu.move(1)
    writes = page_writes(before, pack_pages(render(shown(menu))))
    assert writes and all(w.column + len(w.data) <= 6 for w in writes)   # the `>` column only


def test_a_menu_that_fits_never_moves():
    menu = Menu(list(ITEMS[:3]))
    for _ in range(4):
        menu.move(1)
        assert shown(menu, rows=3).lines[1:] == ("Player 0", "Player 1", "Player 2")
