"""The prompt screen: the prompt's words first, then the menu or the scores where room is left."""
from __future__ import annotations

import pytest

from device.ui.screen import wrap
from engine import Choose, Confirm, Tap
from engine.core.text import languages

from .table import SimTable
from .test_frames import TAMALOU, TAMALOU_LAST_TURNS


def test_a_four_line_prompt_keeps_its_last_line(tmp_path):
    table = SimTable(tmp_path).start(*TAMALOU).run(TAMALOU_LAST_TURNS + "tap AH\n")
    assert table.screen.lines == ("P1: flip all your", "cards, tap each", "tapped 1 of 4 = 1",
                                  "SELECT when done")


def test_the_scores_fill_a_free_line(tmp_path):
    table = SimTable(tmp_path).start("tribord", "P1,P2", "P1").run("tap 4#1")
    assert table.screen.lines[3] == "tapped 1/2"
    table = SimTable(tmp_path / "palourde").start("palourde", "Ann,Bob")
    assert table.screen.lines == ("Ann: flip 2 cards,", "tap each", "Ann 0  Bob 0")


def test_a_menu_leaves_the_question_in_view(tmp_path):
    table = SimTable(tmp_path).start("flouk")
    for event in (Confirm(), Tap("mouta#1"), Tap("faar#1"), Tap("action#1"), Choose("neutral")):
        table.app.play(event)
    # the messages read (BACK on those that ask to move cards); Done, then Face-down moved
    table.run("wait 2\npress back\npress back\npress down\npress select")
    assert table.screen.lines[:2] == ("Face-down card", "came from?")
    table.run("press select")
    assert table.screen.lines[:2] == ("Face-down card", "went to?")


def test_a_number_prompt_takes_up_and_down(tmp_path):
    # P1's manual Decree, and a reported draw so that the game can end after round 1.
    table = SimTable(tmp_path).start("flouk")
    events = [Confirm(), Tap("decree#2"), Tap("faar#1"), Tap("action#1"), Choose("neutral"),
              Choose("face_down"),
              Choose("pile"), Choose("hand:P1"), Confirm()]
    events += [Tap(card) for card in ("mouta#1", "mouta#2", "mouta#3", "faar#2", "faar#3", "faar#4")]
    events += [Choose("end_game")]
    for event in events:
        table.app.play(event)
    table.run("wait 9\npress up\npress up\npress down")
    assert table.screen.lines == ("P1: base pop 2", "Apply your Decree:", "UP/DOWN = 3", "SELECT")


def test_many_players_share_the_free_lines(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Anne,Bobby,Cyril,Dee,Eve")
    assert table.screen.lines == ("Anne: flip 2 cards,", "tap each", "Anne 0  Bobby 0",
                                  "Cyril 0  Dee 0  Eve 0")
    table = SimTable(tmp_path / "tribord").start("tribord", "P1,P2,P3,P4,P5,P6,P7", "P1")
    table.run("tap 1\ntap 2#1\npress back\npress select")
    assert table.screen.lines[3] == "P1 9  P2 9  P3 9 …"


def whole_question_above_the_menu(table: SimTable) -> None:
    spec, state = table.app.session.spec, table.app.session.state
    question = tuple(wrap(table.app.t(spec.prompt(state).text)))
    assert table.screen.lines[:len(question)] == question
    assert table.screen.highlight == len(question)


@pytest.mark.parametrize("language", languages())
def test_flouk_questions_leave_room_for_their_menu(tmp_path, language):
    # The first reveal of a turn names who taps first; the pile check asks the whole question.
    table = SimTable(tmp_path).start("flouk")
    table.app.language = language
    table.app.play(Confirm())
    table.run("wait 2")
    whole_question_above_the_menu(table)
    for event in (Tap("mouta#1"), Tap("faar#1"), Tap("action#1"), Choose("face_down"),
                  Choose("pile"), Choose("hand:P1"), Confirm(), *map(Tap, ("mouta#2", "faar#2",
                  "bloup#1", "mouta#3", "faar#3", "bloup#2"))):
        table.app.play(event)
    table.run("wait 9")
    whole_question_above_the_menu(table)
