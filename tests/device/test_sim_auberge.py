"""A whole game of L'Auberge des pirates through `tabletop run --sim`: menus, taps, buttons."""
from __future__ import annotations

from .simpty import final_scores
from .simrun import sim, status
from .table import to_game

SETUP = to_game("auberge") + """
press select
press down
press select
press select
"""
# Game select: L'Auberge; house rules as they are; 3 players; "Shuffle 55, deal 3 each".

PLAY = """
tap 5#1
tap 3#1
tap 8#1
wait 2
press select
press select
tap 4#1
wait 2
press down
press select
press down
press select
tap 8#2
wait 4
press back
press down
press down
press down
press select
wait 2
press back
press down
press down
press select
press select
tap 6#1
tap 6#2
press select
wait 4
press back
press select
"""
# Openings 5, 3, 8: P2 starts. P2 attacks P1 with a 4; P1 challenges P3 and draws the
# other 8: a pair, P1 is out. P2 draws; P3 accuses P2, who taps a pair of 6s: P2 is out.


def test_full_game_through_the_menus(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    assert result["game"] == "auberge"
    assert result["over"] is True
    assert result["winners"] == ["P3"]
    assert [(p["name"], p["score"], p["out"]) for p in result["players"]] == [
        ("P1", None, True), ("P2", None, True), ("P3", None, False)]
    assert result["details"]["pile"] == 44


def test_a_whole_game_in_an_80x24_terminal_ends_on_the_scores_it_shows(tmp_path):
    first, scores = final_scores(tmp_path, SETUP + PLAY.removesuffix("press select\n") + "wait 2\n")
    assert first[0] == "|GAME OVER     AUBERGE|"
    assert scores == {"P3": "-", "P1": "out", "P2": "out"}
