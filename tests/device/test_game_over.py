"""The end of a game: the whole headline, then every player, scrolled with UP/DOWN."""
from __future__ import annotations

from .table import Table

AUBERGE_3 = """
    tap 5#1
    tap 3#1
    tap 8#1
    wait 2
    press down
    press down
    press select
    press down
    press select
    tap 6#1
    tap 6#2
    press select
    wait 4
    press down
    press down
    press select
    press select
    tap 9#1
    tap 10#1
    press select
    wait 4
    """


def test_the_result_shows_the_headline_and_who_is_out(tmp_path):
    # P2 accuses P3 (a pair: P3 out), then P1 accuses P2 (no pair: P1 out); P2 wins.
    table = Table(tmp_path).start("auberge").run(AUBERGE_3)
    assert table.screen.header == "GAME OVER"
    assert table.screen.header_right == "AUBERGE"
    assert table.screen.lines == ("P2 wins!", "1 P2 -", "2 P1 out", "2 P3 out")


def test_down_stops_at_the_last_player(tmp_path):
    table = Table(tmp_path).start("auberge").run(AUBERGE_3 + "press down\npress down\npress down")
    assert table.screen.lines == ("P2 wins!", "1 P2 -", "2 P1 out", "2 P3 out")


def test_co_winners_share_a_rank():
    from device.ui.game_view import ranking
    from engine.core.outcomes import PlayerLine, Tally
    tally = Tally((PlayerLine("Ann", 5), PlayerLine("Bob", 5), PlayerLine("Cy", 1),
                   PlayerLine("Dee", 1)))
    assert ranking("palourde", tally, ("Ann", "Bob")) == [
        (1, "Ann", 5, False), (1, "Bob", 5, False), (3, "Cy", 1, False), (3, "Dee", 1, False)]
    assert [row[0] for row in ranking("tamalou", tally, ("Cy",))] == [1, 2, 3, 3]
