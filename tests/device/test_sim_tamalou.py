"""A whole game of Tamalou through `tabletop run --sim`: menus, taps, buttons."""
from __future__ import annotations

from .simpty import final_scores
from .simrun import sim, status
from .table import to_game

SETUP = to_game("tamalou") + """
press select
press down
press select
press down
press select
press select
"""
# Game select: Tamalou (UP wraps round, past Language); house rules as they are; 3 players; P2 starts;
# "Shuffle, deal 4 each".

PLAY = """
tap 7C
wait 2
press select
press down
press select
tap 9H
wait 2
press select
wait 2
press down
press select
tap KS
wait 2
tap KH
press down
press select
wait 2
press down
press down
press select
wait 2
press select
press select
tap 4C
wait 2
press select
press down
press select
tap 5H
wait 4
press select
tap AH
tap 2C
tap KD
tap 2D
press select
wait 2
tap 3S
tap 4D
tap 6C
press select
wait 2
tap 10H
tap QS
tap KC
tap AS
press select
wait 4
"""
# Opening discard 7C. P2 draws and plays 9H (look at an opponent card); P3 takes the
# discard and gives up KS; P2 snaps KH on KS; P1 calls Tamalou. Last turns: P2 keeps a
# card and discards 4C, P3 plays 5H; nobody snaps at the last snaps. Reveal: P1 A+2+K(red)+2 = 5, P2 3+4+6 = 13,
# P3 10+Q+K(black)+A = 36: the caller has 5 or less and the lowest, so P1 wins.


def test_full_game_through_the_menus(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + PLAY, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    assert result["game"] == "tamalou"
    assert result["over"] is True
    assert result["winners"] == ["P1"]
    assert {p["name"]: p["score"] for p in result["players"]} == {"P1": 5, "P2": 13, "P3": 36}
    assert result["details"]["caller"] == "P1"
    assert result["details"]["counts"] == {"P1": 4, "P2": 3, "P3": 4}


def test_a_whole_game_in_an_80x24_terminal_ends_on_the_scores_it_shows(tmp_path):
    first, scores = final_scores(tmp_path, SETUP + PLAY)
    assert first[0] == "|GAME OVER     TAMALOU|"
    assert scores == {"P1": "5", "P2": "13", "P3": "36"}


LAST_SNAP = PLAY.replace("""tap 5H
wait 4
press select
tap AH
tap 2C
tap KD
tap 2D
""", """tap 5H
wait 4
tap 5S
wait 2
press select
wait 2
press select
tap AH
tap 2C
tap KD
""")
# The same game, but after P3's last discard (5H) P1 snaps 5S onto it ("Who discarded?":
# P1, the first name), then SELECT starts the reveal: P1 shows 3 cards, A+2+K(red) = 3.


def test_a_last_snap_counts_at_the_reveal(tmp_path, monkeypatch, capsys):
    assert sim(tmp_path, SETUP + LAST_SNAP, monkeypatch=monkeypatch, capsys=capsys) == 0
    result = status(tmp_path, capsys)
    assert result["over"] is True and result["winners"] == ["P1"]
    assert result["details"]["top"] == "5S"
    assert {p["name"]: p["score"] for p in result["players"]} == {"P1": 3, "P2": 13, "P3": 36}
    assert result["details"]["counts"] == {"P1": 3, "P2": 3, "P3": 4}


UNTIL_LAST_SNAPS = PLAY.split("tap AH")[0].removesuffix("press select\n")


def test_the_last_snaps_close_by_themselves_after_the_countdown(tmp_path, monkeypatch, capsys):
    # The countdown (5 s) starts once the messages over the last discard have gone (4 s).
    sim(tmp_path / "a", SETUP + UNTIL_LAST_SNAPS + "wait 1\n", monkeypatch=monkeypatch, capsys=capsys)
    assert status(tmp_path / "a", capsys)["prompt"]["id"] == "last_snaps"
    sim(tmp_path / "b", SETUP + UNTIL_LAST_SNAPS + "wait 6\n", monkeypatch=monkeypatch, capsys=capsys)
    assert status(tmp_path / "b", capsys)["prompt"]["id"] == "reveal"


def test_a_snap_under_way_holds_the_countdown(tmp_path, monkeypatch, capsys):
    sim(tmp_path, SETUP + UNTIL_LAST_SNAPS + "tap 5S\nwait 20\n", monkeypatch=monkeypatch, capsys=capsys)
    assert status(tmp_path, capsys)["prompt"]["id"] == "snap"           # "Who discarded?" waits
