"""The end of a game: the whole headline, then every player, scrolled with UP/DOWN, and what
SELECT does next."""
from __future__ import annotations

import copy
import functools

import pytest

import engine
from device.conformance.playouts import random_playout
from device.ui.playing import GameOver
from device.ui.render import LINE_TOPS, MARK_X, render

from .table import SimTable

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
    press back
    press down
    press down
    press select
    press select
    tap 9#1
    tap 10#1
    press select
    press back
    wait 4
    """


def test_the_result_shows_the_headline_and_who_is_out(tmp_path):
    # P2 accuses P3 (a pair: P3 out), then P1 accuses P2 (no pair: P1 out); P2 wins.
    table = SimTable(tmp_path).start("auberge").run(AUBERGE_3)
    assert table.screen.header == "GAME OVER"
    assert table.screen.header_right == "AUBERGE"
    assert table.screen.lines == ("P2 wins!", "1 P2 -", "2 P1 out", "SELECT=new game")
    assert (table.screen.above, table.screen.below) == (False, True)
    assert table.text.splitlines()[3].endswith("out v")      # the mark is the list's, not SELECT's


def test_down_stops_at_the_last_player(tmp_path):
    table = SimTable(tmp_path).start("auberge").run(AUBERGE_3 + "press down\npress down\npress down")
    # P3 went out first, P1 last: P1 places second, P3 third
    assert table.screen.lines == ("1 P2 -", "2 P1 out", "3 P3 out", "SELECT=new game")
    assert (table.screen.above, table.screen.below) == (True, False)
    image = render(table.screen)
    assert any(image.getpixel((MARK_X + 2, y)) for y in range(LINE_TOPS[0], LINE_TOPS[1]))
    assert not any(image.getpixel((MARK_X + 2, y)) for y in range(LINE_TOPS[3], 64))


@pytest.mark.parametrize("language,words", [("en", "SELECT=new game"),
                                            ("fr", "SELECT=autre partie")])
@pytest.mark.parametrize("game", [spec.id for spec in engine.all_specs()])
def test_every_game_over_says_what_select_does_next(tmp_path, game, language, words):
    table = SimTable(tmp_path, language)
    table.app.session, table.app.mode = copy.deepcopy(played_out(game)), GameOver()
    assert table.screen.lines[-1] == words
    assert len(table.screen.lines) == 4
    table.run("press select")
    assert table.app.session is None                  # as it says: the game select, for the next


@functools.cache
def played_out(game: str):
    """The game played to its end at seed 1: played once, each language's table given a copy."""
    spec = engine.get(game)
    low, _ = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return random_playout(spec, max(low, 3), seed=1)


def test_co_winners_share_a_rank():
    from device.ui.game_view import ranking
    from engine import get
    from engine.core.outcomes import PlayerLine, Tally
    tally = Tally((PlayerLine("Ann", 5), PlayerLine("Bob", 5), PlayerLine("Cy", 1),
                   PlayerLine("Dee", 1)))
    assert ranking(get("palourde"), tally, ("Ann", "Bob")) == [
        (1, "Ann", 5, False), (1, "Bob", 5, False), (3, "Cy", 1, False), (3, "Dee", 1, False)]
    assert [row[0] for row in ranking(get("tamalou"), tally, ("Cy",))] == [1, 2, 3, 3]
