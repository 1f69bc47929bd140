"""A whole game of Flouk through `tabletop run --sim`: menus, taps, buttons, report loops.

The shipped card file leaves Chief powers, Actions and most Decrees "manual": the
device then asks the table to report what moved. A reported draw from the pile makes
the next deal ask whether the pile is still big enough, and the table ends the game.
"""
from __future__ import annotations

from device.cli import main
from device.storage.card_data import learned_details, learned_file

from .simpty import final_scores
from .simrun import sim, status
from .table import to_game

SETUP = to_game("flouk") + """
press select
press select
press select
"""
# Game select: Flouk (UP wraps round, past Language); house rules as they are; 3 players; "Shuffle all 100".

PLAY = """
press select
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
press select
press select
wait 2
press select
press up
press select
wait 4
wait 2
press back
press back
press down
press select
press select
press select
press select
wait 2
press select
wait 4
tap action#1
tap mouta#2
press select
press select
wait 4
press back
press select
wait 4
tap faar#1
press select
wait 2
press select
wait 6
press down
press select
wait 2
press up
press up
press select
wait 4
press select
"""
# Round 1. Turn 1: Mouta, Faar, Bloup, one to each village. Turn 2: two Chiefs, so their
# white numbers are asked (Mouta Chief 0: SELECT for the tens,
# SELECT for the units; Faar Chief 1: SELECT, UP, SELECT); P1's Mouta Chief is
# welcomed (its power: a face-down card reported from the pile to P1's hand), P2's Decree 2
# (manual), P3's Faar Chief finds no Faar: welcome failed. Turn 3: P1's Action 1, asked
# which people (Flouk (neutral): SELECT) (by hand:
# P2's Faar reported into P1's village), P2's Mouta, P3 no card (sure). The pile moved, so
# the table ends the game; P2 applies the Decree with UP twice: 1 + 2. A message that asks the
# table to move cards stays until a button (BACK here) or a tap.


def test_full_game_through_the_menus(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    assert result["game"] == "flouk"
    assert result["over"] is True
    assert result["winners"] == ["P1", "P2"]
    assert {p["name"]: p["score"] for p in result["players"]} == {"P1": 3, "P2": 3, "P3": 1}
    details = result["details"]
    assert details["villages"] == {"P1": ["mouta#1", "chief_mouta#1", "faar#1"],
                                   "P2": ["mouta#2"], "P3": ["bloup#1"]}
    assert details["pile"] == 87
    assert sorted(details["discard"]) == ["action#1", "chief_faar#1"]
    assert details["learned"] == {"chief_mouta#1": {"white": 0}, "chief_faar#1": {"white": 1},
                                  "action#1": {"people": "neutral"}}
    assert learned_details(tmp_path, "flouk") == details["learned"]


def test_a_whole_game_in_an_80x24_terminal_ends_on_the_scores_it_shows(tmp_path):
    first, scores = final_scores(tmp_path, SETUP + PLAY.removesuffix("press select\n"))
    assert first[0] == "|GAME OVER       FLOUK|"
    assert scores == {"P1": "3", "P2": "3", "P3": "1"}


DEALT = "press select\n"      # `--game flouk` shows "Shuffle all 100 cards" too

NEXT_GAME = """
press select
wait 2
tap mouta#3
tap faar#3
tap bloup#3
wait 2
tap chief_mouta#1
tap faar#4
tap chief_faar#1
wait 4
"""


def test_a_learned_detail_is_not_asked_again_in_the_next_game(tmp_path, monkeypatch, capsys):
    sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys)
    assert sim(tmp_path, DEALT + NEXT_GAME, "--game", "flouk", "--players", "P1,P2,P3",
               monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    # Both Chiefs' white numbers are known: no question, Mouta Chief (0) is welcomed first.
    assert result["prompt"]["id"] == "report"
    assert result["details"]["resolving"] == "chief_mouta#1" and result["details"]["learned"] == {}


UNTIL_ASKED = """
press select
wait 2
tap mouta#1
tap faar#1
tap bloup#1
wait 2
tap mouta#2
tap faar#2
tap action#12
wait 4
press back
"""
ANSWER_NAPIL = """
press down
press down
press down
press down
press select
wait 4
"""


def test_a_learned_detail_survives_a_restart(tmp_path, monkeypatch, capsys):
    args = ("--game", "flouk", "--players", "P1,P2,P3")
    sim(tmp_path, DEALT + UNTIL_ASKED + ANSWER_NAPIL, *args, monkeypatch=monkeypatch, capsys=capsys)
    assert sim(tmp_path, "tap mouta#3\nwait 2\n", monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)                 # the second run resumed the game
    assert result["details"]["learned"] == {"action#12": {"people": "napil"}}
    assert "action#12" in result["details"]["discard"]     # P3 has no Napil: no effect
    assert result["details"]["revealed"] == [["P1", "mouta#3"]]
    assert learned_details(tmp_path, "flouk") == {"action#12": {"people": "napil"}}


def test_tabletop_cards_shows_known_learned_and_unknown_details(tmp_path, monkeypatch, capsys):
    sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys)
    assert main(["cards", "show", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "chief_mouta#1   white 0 (learned)" in lines
    assert "action#1        people neutral (learned)  white unknown" in lines
    assert "action#2        people unknown  white unknown" in lines
    assert lines[-1] == "2 of 43 cards have every detail known"
    learned_file(tmp_path, "flouk").write_text("{not json", encoding="utf-8")
    assert main(["cards", "show", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "flouk.learned.json: unreadable" in out and "0 of 43 cards" in out
