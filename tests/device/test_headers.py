"""The header: the game's name and the figure the table glances at, in 21 characters."""
from __future__ import annotations

import pytest

import device.texts  # noqa: F401  (registers the texts shown below)
import engine
from device.ui.game_view import badge, header_name
from device.ui.layout import layout
from device.ui.screen import COLUMNS
from engine.core.outcomes import Tally
from engine.core.text import msg

from .table import SimTable


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda s: s.id)
def test_every_name_leaves_room_for_a_badge(spec):
    assert len(header_name(spec).text()) <= COLUMNS - len(" Pot 10 R10")


def test_tamalou_reveal_says_whose_square_of_how_many():
    details = (("phase", "reveal"), ("counts", {"P1": 4, "P2": 3, "P3": 4}))
    assert badge(engine.get("tamalou"), Tally((), details, current="P2", round=1)).text() == "Reveal 2/3"


def test_flouk_names_the_resolution_step():
    flouk = engine.get("flouk")
    assert badge(flouk, Tally((), (("turn", 3), ("step", "chief")), round=2)).text() == "R2 T3 Chiefs"
    assert badge(flouk, Tally((), (("turn", 3), ("step", None)), round=2)).text() == "R2 T3"


# Flouk's first two turns (the frames' deal): three Flouks, then two Chiefs and a Decree.
TURN_1 = "press select\nwait 2\ntap mouta#1\ntap faar#1\ntap bloup#1\nwait 2\n"


def test_a_message_shows_under_the_header_of_the_game_as_it_is_now(tmp_path):
    """The last reveal runs the Decree step and stops at the Chiefs' white numbers: the Decree
    message is shown under the header of the step the game is at, as is every message."""
    table = SimTable(tmp_path).start("flouk")
    table.run(TURN_1 + "tap chief_mouta#1\ntap decree#2")
    assert table.text.splitlines()[0] == "|FLOUK           R1 T2|"
    table.run("tap chief_faar#1")
    shown = table.text.splitlines()
    assert shown[0] == "|FLOUK    R1 T2 Chiefs|"
    assert "P2: new Decree" in table.text
    assert table.screens[-1].header_right == "R1 T2 Chiefs"      # the frame the display drew
    table.run("wait 4")                                    # an instruction: it stays, as it was
    assert table.text.splitlines() == shown
    table.run("press back")
    assert table.text.splitlines()[:3] == ["|FLOUK    R1 T2 Chiefs|", "  Mouta Chief:", "  white number?"]


@pytest.mark.parametrize(("game", "players", "lines", "header", "said"), [
    ("palourde", "Ann,Bob,Cy", "tap high_tide#1", "|PALOURDE     Tide 1/3|", "High Tide! 1/3"),
    ("auberge", "Ann,Bob,Cy", "tap 5#1\ntap 3#1\ntap 8#1", "|AUBERGE           Bob|",
     "Bob starts"),
    ("tribord", "Ann,Bob,Cy", "tap 5#1\ntap 7#1", "|A TRIBORD!   Pot 3 R1|",
     "Everyone puts 1 token"),
], ids=["palourde", "auberge", "tribord"])
def test_the_header_agrees_with_the_message_over_it(tmp_path, game, players, lines, header, said):
    table = SimTable(tmp_path).start(game, players, dealt=False).run("press select\n" + lines)
    shown = table.text.splitlines()
    assert shown[0] == header, table.text
    assert said in " ".join(line.strip() for line in shown[1:]), table.text


def test_a_games_closing_steps_show_under_its_header_then_game_over(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bob")
    table.run("tap high_tide#1\ntap high_tide#2\ntap high_tide#3")
    assert table.text.splitlines()[:2] == ["|PALOURDE     Tide 3/3|", "  High Tide! 3/3"]
    table.run("press select")             # read: the result, not a new game yet
    assert table.text.splitlines()[0] == "|GAME OVER    PALOURDE|"
    assert table.app.session is not None


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", [spec.id for spec in engine.all_specs()])
@pytest.mark.parametrize("note", ["ui.resumed", "ui.torn", "ui.one_card", "ui.reader_offline",
                                  "ui.disk_error", "ui.display_offline"])
def test_a_header_note_leaves_the_games_name_whole(tmp_path, game, language, note):
    table = SimTable(tmp_path, language).start(game)
    table.app.notice = msg(note)
    laid = layout(table.screen)
    name = table.app.t(header_name(table.app.game().spec))
    assert laid.header is not None and laid.header.startswith(name + " ")
    assert not laid.cuts, laid.cuts


def test_the_resumed_game_names_itself_whole(tmp_path):
    SimTable(tmp_path).start("tribord", "Ann,Bob,Cy").run("tap 5#1")
    again = SimTable(tmp_path)
    again.app.resume_game()
    assert again.text.splitlines()[0] == "|A TRIBORD!    Resumed|"
