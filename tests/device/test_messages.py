"""Messages over the screen: pages of four lines, cleared by time or a button."""
from __future__ import annotations

from engine import msg

from .table import SimTable


def test_long_messages_come_in_pages(tmp_path):
    table = SimTable(tmp_path)
    table.app.show(msg("ui.abort_confirm"), msg("ui.kept_aside", why="x"), msg("ui.aborted"))
    assert table.screen.lines == ("Abort this game?", "SELECT=yes BACK=no",
                                  "Saved game kept", "aside: x")
    table.run("wait 2")
    assert table.screen.lines == ("Game aborted",)
    table.run("wait 2")
    assert "Tap a card to start" in table.text


def test_a_button_turns_the_page_and_does_nothing_else(tmp_path):
    table = SimTable(tmp_path)
    table.app.show(msg("ui.abort_confirm"), msg("ui.kept_aside", why="x"), msg("ui.aborted"))
    table.run("press down")
    assert table.screen.lines == ("Game aborted",)
    table.run("press down")
    assert table.screen.highlight == 0          # the game select's highlight did not move
