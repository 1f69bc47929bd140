"""A whole game of A tribord! through `tabletop run --sim`: menus, taps, buttons."""
from __future__ import annotations

from .simpty import final_scores
from .simrun import sim, status
from .table import to_game

SETUP = to_game("tribord") + """
press down
press select
press down
press select
press up
press up
press select
press up
press select
press down
press select
press select
press select
"""
# Game select: A tribord!; house rules: start_tokens [1]0, tens down to 0 (01), units up
# to 3, Start game;
# 3 players; P1 takes the Button; "Give 3 tokens each".

PLAY = """
tap 4#1
tap 9#1
wait 2
press back
press select
tap 2#1
wait 2
press down
press select
wait 2
press select
tap 7#1
wait 2
press down
press select
wait 2
press select
tap 9#2
press back
press back
press back
wait 8
"""
# Centre 4 and 9, everyone antes 1 (pot 3). P1 draws a 2; P2 blocks; P3 draws a 7, which
# puts the blocker P2 out; P1 blocks; P3 draws the other 9: a pair, P3 is out. P1 alone
# blocked takes the pot of 6; P3 has no token left, so the game ends: the pair, the round's
# end and the pot taken are said (2 s a page) before the winner and the scores.


def test_full_game_through_the_menus(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    assert result["game"] == "tribord"
    assert result["over"] is True
    assert result["winners"] == ["P1"]
    assert {p["name"]: p["score"] for p in result["players"]} == {"P1": 7, "P2": 2, "P3": 0}
    assert result["details"]["pot"] == 0


def test_a_whole_game_in_an_80x24_terminal_ends_on_the_scores_it_shows(tmp_path):
    first, scores = final_scores(tmp_path, SETUP + PLAY)
    assert first[0] == "|GAME OVER  A TRIBORD!|"
    assert scores == {"P1": "7", "P2": "2", "P3": "0"}
