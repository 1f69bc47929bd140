"""One input language: a script takes every line the simulator takes and the simulator every
line a script takes, both read by one parser (engine.core.script), and a line means the same
in both."""
from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from device.cli.replay import replay_text, report
from device.sim.lines import LONGEST, SimInputError, SimReaderField
from device.sim.play import run_sim
from engine.core.script import BUTTONS, WORDS, ScriptError, parse_script

from .table import SimTable

HEADER = "game flouk\nplayers Ann Bob Cy\n"

# Flouk at its first white number (the Mouta Chief's), as a script: the deal, two turns.
TO_THE_WHITE = HEADER + """select
wait 2
tap mouta#1
tap faar#1
tap bloup#1
wait 2
tap chief_mouta#1
tap decree#2
tap chief_faar#1
wait 4
press back
"""

WORD = st.sampled_from([*WORDS, "game", "Tap", "PRESS", "flip", "tap#", "#"])
ARG = st.one_of(st.sampled_from([*BUTTONS, "clam#3", "uid:04A1B2C3", "uid:zz", "1.5", "-1", "nan",
                                 "P1", "7", "#x"]),
                st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=12))
LINE = st.builds(lambda verb, args, tail: " ".join([verb, *args]) + tail, WORD,
                 st.lists(ARG, max_size=3), st.sampled_from(["", " ", "\t# note", " #x"]))


def read_by_script(line: str) -> str:
    """What the script makes of the line: 'ok', or the reason it refuses it."""
    try:
        parse_script(HEADER + line)
    except ScriptError as exc:
        return exc.reason
    return "ok"


def read_by_simulator(line: str) -> str:
    try:
        SimReaderField(lambda card: "04A1B2C3").parse(line)     # every card id a known tag
    except SimInputError as exc:
        return str(exc)
    return "ok"


@given(LINE)
def test_a_line_means_the_same_to_a_script_and_to_the_simulator(line):
    if line.split() and line.split()[0] in ("game", "players", "first", "option"):
        return                                 # directives: a script's setup, before its lines
    if len(line) <= LONGEST:
        assert read_by_script(line) == read_by_simulator(line)


@pytest.mark.parametrize("line", ["press down", "hold select", "wait 2", "place faar#2", "lift",
                                  "tap uid:04A1B2C3", "choose 7", "select", "back", "undo", "redo",
                                  "PRESS UP", "tap clam#3 # a comment"])
def test_every_simulator_line_is_a_script_line_and_back(line):
    assert read_by_script(line) == "ok" == read_by_simulator(line)


def test_a_raw_uid_is_a_tap_the_game_does_not_know_in_a_script():
    assert parse_script(HEADER + "tap uid:04a1b2c3").steps[0].kind == "event"


def test_choose_a_word_like_a_uid_is_still_a_choice():
    assert SimReaderField(lambda card: None).parse("choose uid:04A1B2C3")[0].action.event.option \
        == "uid:04A1B2C3"
    assert parse_script(HEADER + "choose uid:04A1B2C3").steps[0].kind == "event"


def test_a_script_sets_a_white_number_with_the_buttons():
    replay = replay_text(TO_THE_WHITE + "press up\npress select\npress up\npress up\npress select\n")
    learned = report(replay)["details"]["learned"]
    assert learned == {"chief_mouta#1": {"white": 12}}
    last = replay.records[-1]
    assert (last.line, last.verdict, last.text) == (18, "ok", "press select -> choose 12")


def test_choose_sets_the_same_number_at_once_on_a_table_and_in_the_engine():
    on_table = replay_text(TO_THE_WHITE + "choose 12\n")
    in_engine = replay_text(TO_THE_WHITE.replace("wait 2\n", "").replace("wait 4\n", "")
                            .replace("press back\n", "") +
                            "choose 12\n")
    assert report(on_table) == report(in_engine)


def test_a_refused_line_on_the_table_is_recorded_and_the_next_runs():
    replay = replay_text(TO_THE_WHITE + "tap nosuch#1\nchoose 3\n")
    bad, good = replay.records[-2:]
    assert (bad.verdict, bad.messages) == ("rejected", ["'nosuch#1': no such card in any "
                                                        "simulated deck"])
    assert good.verdict == "ok" and report(replay)["rejected"][0]["line"] == 14


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda spec: spec.id)
def test_each_demo_ends_the_same_played_on_a_table(spec):
    """The demo with a `wait 0` at its end runs on the simulated table: the same game."""
    text = resources.files(spec.home).joinpath("demo.script").read_text(encoding="utf-8")
    in_engine, on_table = replay_text(text), replay_text(text + "\nwait 0\n")
    assert on_table.records[-1].text == "wait 0"
    assert report(on_table) == report(in_engine)


def test_the_simulator_answers_a_prompt_with_choose(tmp_path):
    table = SimTable(tmp_path).start("auberge", "P1,P2,P3").run("tap 5#1\ntap 3#1\ntap 8#1\nwait 2")
    assert table.app.view()[0].id == "turn"
    table.run("choose attack")
    assert table.app.view()[0].id == "target"
    table.run("undo")
    assert table.app.view()[0].id == "turn"
    table.run("redo\nchoose P3")
    assert table.app.session.state.target == "P3"


def test_choose_without_a_game_is_one_line_that_changes_nothing(tmp_path):
    said: list[str] = []
    table = SimTable(tmp_path)
    before = table.screen
    run_sim(table.app, ["choose attack"], table.clock, table.frames, table.field, said.append)
    assert said == ["input line 1: no game is on: choose, select, back, undo and redo answer "
                    "a game's prompt"]
    assert table.screen == before and table.clock() == 0
