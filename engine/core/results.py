"""The result rule most games share: the best score wins, equal leaders per a tie rule.

Best is the most (clams, tokens, population) or, in a game where `lowest` wins, the fewest
(Tamalou's points). Equal leaders share the win, or with the house rule `tie_rule=none`
nobody wins; the game words its own headline from the Ranking.
"""
from __future__ import annotations

from collections.abc import Iterable

from .record import record

SHARED = "shared"          # tie_rule: equal leaders share the win
NO_WINNER = "none"         # tie_rule: equal leaders leave the game without a winner
TIE_RULES = (SHARED, NO_WINNER)


@record
class Ranking:
    """Who leads on score, and who wins once the tie rule is applied."""

    leaders: tuple[str, ...]      # the seats with the best score, in seat order
    best: int
    winners: tuple[str, ...]      # the leaders, or nobody where they tie and the rule says so

    @property
    def tied(self) -> bool:
        return len(self.leaders) > 1


def rank(scores: Iterable[tuple[str, int]], tie_rule: object = SHARED, lowest: bool = False) -> Ranking:
    """Rank (seat, score) pairs given in seat order: the most wins, or the fewest if `lowest`."""
    table = tuple(scores)
    best = (min if lowest else max)(score for _, score in table)
    leaders = tuple(seat for seat, score in table if score == best)
    tied_out = len(leaders) > 1 and tie_rule == NO_WINNER
    return Ranking(leaders, best, () if tied_out else leaders)
