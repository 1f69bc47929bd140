"""A known card at idle offers its game: the question wraps above the menu."""
from __future__ import annotations

from .table import SimTable, too_wide


def test_the_offer_names_the_deck_in_full(tmp_path):
    table = SimTable(tmp_path).run("tap 5#1")
    assert table.screen.lines == ("Start with deck", "sim-pirates?", "L'Auberge",
                                  "A tribord!")
    assert table.screen.highlight == 2
    table.run("press down\npress down")
    assert table.screen.lines[2:] == ("A tribord!", "Cancel")
    assert not [bad for screen in table.screens for bad in too_wide(screen)]
