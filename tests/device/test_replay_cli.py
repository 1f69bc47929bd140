"""`tabletop replay` as its contract states it: exit codes, errors by line, the JSON form."""
from __future__ import annotations

import json

import pytest

from device.cli import main

GOOD = "game palourde\nplayers Ann Bob\n# a comment\ntap clam#1  # the first flip\ntap clam#2\ntap clam#1\n"


def run_cli(tmp_path, text, *args, capsys):
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code = main(["replay", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_form(tmp_path, capsys):
    code, out, _ = run_cli(tmp_path, GOOD, "--json", capsys=capsys)
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"game", "over", "winners", "players", "prompt", "rejected", "details"}
    assert data["players"] == [{"name": "Ann", "score": 2, "out": False},
                               {"name": "Bob", "score": 0, "out": False}]
    assert data["rejected"] == [{"line": 6, "code": "E_OUT_OF_PLAY", "message": "Card is out of play"}]
    assert data["prompt"] == {"id": "flip1", "text": "Bob: flip 2 cards,\ntap each", "options": []}
    assert data["details"]["high_tides_up"] == 0


def test_text_form_shows_each_line(tmp_path, capsys):
    code, out, _ = run_cli(tmp_path, GOOD, capsys=capsys)
    assert code == 0
    assert "E_OUT_OF_PLAY" in out and "Ann" in out


@pytest.mark.parametrize("text,expected", [
    ("players Ann Bob\ntap clam#1\n", "line 1: missing 'game' directive"),
    ("game chess\nplayers Ann Bob\n", "line 1: unknown game 'chess'"),
    ("game palourde\nplayers Ann\n", "line 2: Palourde needs 2-5 players, not 1"),
    ("game palourde\nplayers Ann Bob\noption storm_ends_turn=maybe\n",
     "line 3: option storm_ends_turn: 'maybe' is not true or false"),
    ("game palourde\nplayers Ann Bob\noption colour=red\n", "line 3: unknown option colour"),
    ("game palourde\nplayers Ann Bob\nfirst Zed\n", "line 3: first player Zed is not among the players"),
    ("game palourde\nplayers Ann Bob\ntap clam#1\nplayers Cy Dee\n",
     "line 4: directive 'players' after the first event"),
    ("game palourde\nplayers Ann Bob\nflip clam#1\n", "line 3: unknown word 'flip'"),
    ("game palourde\nplayers Ann Bob\ntap\n", "line 3: 'tap' takes one card id or uid:HEX"),
    ("game palourde\nplayers Ann Bob\noption storm_ends_turn\n", "line 3: option must be key=value"),
    ("game palourde\nplayers Ann Bob\nhold up x\n", "line 3: hold takes seconds from 0 to 86400, not 'x'"),
    ("game palourde\nplayers Ann Bob\nhold down 1 2\n", "line 3: 'hold' takes one button"),
])
def test_directive_errors_exit_2_with_line(tmp_path, capsys, text, expected):
    code, out, err = run_cli(tmp_path, text, capsys=capsys)
    assert code == 2 and out == ""
    assert expected in err


def test_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_undo_redo_lines(tmp_path, capsys):
    text = "game palourde\nplayers Ann Bob\ntap clam#1\ntap clam#2\nundo\nundo\nundo\nundo\nredo\n"
    code, out, _ = run_cli(tmp_path, text, "--json", capsys=capsys)
    data = json.loads(out)
    assert [r["line"] for r in data["rejected"]] == [7, 8]
    assert data["rejected"][0]["message"] == "Nothing to undo"
    assert data["prompt"]["id"] == "flip2"


def test_up_and_down_are_held_in_a_script_as_in_the_simulator(tmp_path, capsys):
    """The one input language: a script holds UP or DOWN (its repeats) as the simulator does."""
    code, out, err = run_cli(tmp_path, "game palourde\nplayers Ann Bob\nhold down 3\nhold up\n",
                             "--json", capsys=capsys)
    assert code == 0, err
    assert json.loads(out)["rejected"] == []
