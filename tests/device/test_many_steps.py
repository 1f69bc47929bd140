"""Many-step prompts (a Tamalou Jack's swap): a pick is taken once, the highlight then moves
on to Done, and SELECT on the message "SELECT when done" finishes the power."""
from __future__ import annotations

import pytest

from .table import SimTable

TO_THE_JACK = ["press select", "tap 7C", "wait 2", "press select", "press down", "press select",
               "tap JH", "wait 2"]


def played_to(tmp_path, game: str, lines: list[str], prompt: str, **start) -> SimTable:
    """A three-player game played by `lines` up to the prompt `prompt`."""
    table = SimTable(tmp_path)
    table.start(game, "P1,P2,P3", **start)
    for line in lines:
        table.run(line)
    assert table.app.view()[0].id == prompt
    return table


def jack(tmp_path) -> SimTable:
    return played_to(tmp_path, "tamalou", TO_THE_JACK, "power", first="P2")


def test_after_a_pick_the_highlight_is_on_done_and_select_finishes(tmp_path):
    table = jack(tmp_path)
    table.run("press select")                    # picks P1
    seq = table.app.session.state.seq
    assert table.screen.lines[0] == "With P1"
    table.run("press select")                    # the message says SELECT when done: one press
    assert table.app.session.state.seq == seq + 1
    assert table.app.view()[0].id != "power"


def test_the_same_pick_is_never_taken_twice(tmp_path):
    table = jack(tmp_path)
    table.run("press select")
    table.run("wait 2")
    assert table.screen.lines[table.screen.highlight] == "Done"
    seq = table.app.session.state.seq
    table.run("press down")                      # Done wraps round to P1, picked already
    table.run("press select")
    assert table.app.session.state.seq == seq
    assert table.screen.lines[0] == "Already picked:"


# Flouk, three players: Mouta, Mouta, Faar; then P1's Action 1, learned as a Mouta Action,
# finds P1's Mouta: its effect is applied by hand, the moved cards reported.
TO_THE_REPORT = ["press select", "wait 2", "tap mouta#1", "tap mouta#2", "tap faar#1", "wait 4",
                 "tap action#1", "tap bloup#1", "tap bloup#2", "wait 4", "press back", "press down",
                 "press select", "wait 4", "press back", "press back"]


def report(tmp_path) -> SimTable:
    return played_to(tmp_path, "flouk", TO_THE_REPORT, "report")


def test_select_on_a_report_is_done_as_its_words_say(tmp_path):
    table = report(tmp_path)
    assert "moved, SELECT" in table.text           # with Done highlighted
    assert table.screen.lines[table.screen.highlight] == "Done"
    table.run("press select")
    assert table.app.view()[0].id == "reveal"


def test_after_a_reported_move_select_is_still_done(tmp_path):
    table = report(tmp_path)
    table.run("tap mouta#2")                     # P2's Mouta moved...
    table.run("press down")
    table.run("press select")                    # ...to P3's village
    table.run("wait 2")
    assert "1/6 moved" in table.text
    assert table.screen.lines[table.screen.highlight] == "Done"
    table.run("press select")
    assert table.app.view()[0].id == "reveal"


# L'Auberge, three pirates: P2 opens lowest and accuses P1, who taps the two hand cards.
TO_THE_ACCUSATION = ["tap 5#1", "tap 3#1", "tap 8#1", "wait 4", "press down", "press down",
                     "press select", "wait 2", "press select", "wait 2", "tap 9#1", "tap 7#1"]


@pytest.mark.parametrize("language,word", [("en", "then SELECT"), ("fr", "puis SELECT")])
def test_an_accusation_says_that_select_ends_the_taps(tmp_path, language, word):
    table = SimTable(tmp_path, language)
    table.start("auberge", "P1,P2,P3")
    for line in TO_THE_ACCUSATION:
        table.run(line)
    assert table.app.view()[0].id == "accuse_taps"
    assert "2/2" in table.text and word in table.text
    table.run("press select")
    assert table.app.view()[0].id != "accuse_taps"
