"""A whole game of Flouk through `tabletop run --sim`: menus, taps, buttons, report loops.

The shipped card file leaves Chief powers, Actions and most Decrees "manual": the
device then asks the table to report what moved. A reported draw from the pile makes
the next deal ask whether the pile is still big enough, and the table ends the game.
"""
from __future__ import annotations

from .simrun import sim, status

SETUP = """
press up
press up
press select
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
press select
press select
press select
press select
wait 2
press down
press select
wait 4
tap action#1
tap mouta#2
press select
press select
wait 4
tap faar#1
press select
wait 2
press down
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
# Round 1. Turn 1: Mouta, Faar, Bloup, one to each village. Turn 2: P1's Mouta Chief is
# welcomed (its power: a face-down card reported from the pile to P1's hand), P2's Decree 2
# (manual), P3's Faar Chief finds no Faar: welcome failed. Turn 3: P1's Action 1 (by hand:
# P2's Faar reported into P1's village), P2's Mouta, P3 no card (sure). The pile moved, so
# the table ends the game; P2 applies the Decree with UP twice: 1 + 2.


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
