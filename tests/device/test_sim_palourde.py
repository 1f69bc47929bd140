"""A whole Palourde game through `tabletop run --sim`: the real menus, taps and buttons."""
from __future__ import annotations

from .simpty import final_scores
from .simrun import sim, status
from .table import to_game

SETUP = to_game("palourde") + """
press select
tap basket#1
tap basket#2
tap basket#3
press select
tap basket#2
press select
"""

PLAY = """
tap clam#1
tap clam#2
tap high_tide#1
tap crab#1
tap crab#2
wait 2
press back
press select
tap high_tide#2
tap rake#1
tap clam#3
tap shrimp#1
tap shrimp#2
tap high_tide#3
"""


def test_full_game_through_the_menus(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    # P2 starts: Clam pair (P2 2), P3 High Tide, P1 Crab pair steals from P2,
    # P2 High Tide, P3 Clam+Rake (1) then Shrimps, P1 third High Tide.
    assert result["over"] is True
    assert {p["name"]: p["score"] for p in result["players"]} == {"P1": 1, "P2": 1, "P3": 1}
    assert result["winners"] == ["P1", "P2", "P3"]


def test_a_whole_game_in_an_80x24_terminal_ends_on_the_scores_it_shows(tmp_path):
    first, scores = final_scores(tmp_path, SETUP + PLAY + "wait 2\n")
    assert first[0] == "|GAME OVER    PALOURDE|"
    assert scores == {"P1": "1", "P2": "1", "P3": "1"}


def test_game_resumes_after_a_restart(tmp_path, monkeypatch, capsys):
    sim(tmp_path, SETUP + "tap clam#1\n", monkeypatch=monkeypatch, capsys=capsys)
    sim(tmp_path, "tap clam#2\n", monkeypatch=monkeypatch, capsys=capsys)
    result = status(tmp_path, capsys)
    assert {p["name"]: p["score"] for p in result["players"]}["P2"] == 2


def test_game_flags_skip_the_wizard(tmp_path, monkeypatch, capsys):
    sim(tmp_path, "tap clam#1\ntap clam#2\n", "--game", "palourde", "--players", "Ann,Bob",
        monkeypatch=monkeypatch, capsys=capsys)
    result = status(tmp_path, capsys)
    assert [p["score"] for p in result["players"]] == [2, 0]


def test_bad_flags_exit_2(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, "", "--game", "palourde", "--players", "Ann",
               monkeypatch=monkeypatch, capsys=capsys) == 2


def test_an_unknown_button_name_lists_the_valid_ones():
    from device.sim.lines import SimInputError, SimReaderField
    field = SimReaderField(lambda card: None)
    try:
        field.parse("press start")
    except SimInputError as exc:
        assert "up, down, select, back" in str(exc)
    else:
        raise AssertionError("press start was taken")


def test_run_game_refuses_to_drop_an_unfinished_game(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, "tap clam#1\n", "--game", "palourde", "--players", "Ann,Bob",
               monkeypatch=monkeypatch, capsys=capsys) == 0
    assert sim(tmp_path, "", "--game", "palourde", "--players", "Ann,Bob",
               monkeypatch=monkeypatch, capsys=capsys) == 2
    assert sim(tmp_path, "", "--game", "palourde", "--players", "Ann,Bob", "--new",
               monkeypatch=monkeypatch, capsys=capsys) == 0
