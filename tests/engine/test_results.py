"""The shared result rule: the best score wins, equal leaders per the tie rule."""
from __future__ import annotations

import pytest

from engine.core.results import NO_WINNER, SHARED, rank


@pytest.mark.parametrize("scores, tie_rule, lowest, leaders, winners, best", [
    ((("Ann", 4), ("Bob", 7), ("Cy", 2)), SHARED, False, ("Bob",), ("Bob",), 7),
    ((("Ann", 7), ("Bob", 7), ("Cy", 2)), SHARED, False, ("Ann", "Bob"), ("Ann", "Bob"), 7),
    ((("Ann", 7), ("Bob", 7), ("Cy", 2)), NO_WINNER, False, ("Ann", "Bob"), (), 7),
    ((("Ann", 7), ("Bob", 3), ("Cy", 9)), NO_WINNER, False, ("Cy",), ("Cy",), 9),   # no tie
    ((("Ann", 4), ("Bob", 2), ("Cy", 2)), SHARED, True, ("Bob", "Cy"), ("Bob", "Cy"), 2),
    ((("Ann", 0), ("Bob", 0)), SHARED, False, ("Ann", "Bob"), ("Ann", "Bob"), 0),     # all equal
    ((("Ann", 5),), NO_WINNER, True, ("Ann",), ("Ann",), 5),                        # one seat
])
def test_rank(scores, tie_rule, lowest, leaders, winners, best):
    ranking = rank(scores, tie_rule, lowest)
    assert (ranking.leaders, ranking.winners, ranking.best) == (leaders, winners, best)
    assert ranking.tied == (len(leaders) > 1)


def test_leaders_keep_seat_order_whatever_the_scores_order():
    assert rank((("Cy", 3), ("Ann", 3), ("Bob", 1))).leaders == ("Cy", "Ann")
