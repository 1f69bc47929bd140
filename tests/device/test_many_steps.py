"""Many-step prompts (a Tamalou Jack's swap): a pick is taken once, the highlight then moves
on to Done, and SELECT on the message "SELECT when done" finishes the power."""
from __future__ import annotations

from .table import Table

TO_THE_JACK = ["press select", "tap 7C", "wait 2", "press select", "press down", "press select",
               "tap JH", "wait 2"]


def jack(tmp_path) -> Table:
    table = Table(tmp_path)
    table.start("tamalou", "P1,P2,P3", first="P2")
    for line in TO_THE_JACK:
        table.run(line)
    assert table.app.view()[0].id == "power"
    return table


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
