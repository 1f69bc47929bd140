"""Tamalou's card facts and scoring: pure functions of card ids and scores.

A card id is rank + suit (`7C`, `10H`, `KS`). Points, snaps and powers read
only the id; the winner rules read only the revealed scores and who called.
"""
from __future__ import annotations

from tabletop_kit import Msg, msg, rank

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
BLACK = ("S", "C")
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
CALL_LIMIT = 5          # §4.5: a winning caller has at most 5 points

# §4.1 powers, only for a card drawn from the pile and played (AMB-TA8).
LOOK_OWN, LOOK_OPPONENT, BLIND_SWAP, LOOK_AND_SWAP = "look_own", "look_opponent", "swap", "king"
POWERS = {"7": LOOK_OWN, "8": LOOK_OWN, "9": LOOK_OPPONENT, "10": LOOK_OPPONENT,
          "J": BLIND_SWAP, "Q": BLIND_SWAP}


def rank_of(card: str) -> str:
    return card[:-1]


def label(card: str) -> Msg:
    """A card's name on screen, from its rank and suit: `KS`, or "Roi de pique" in French."""
    rank, suit = rank_of(card), card[-1:]
    if rank in RANKS and suit in SUITS:
        return msg("tm.card", rank=msg(f"tm.rank.{rank}"), suit=msg(f"tm.suit.{suit}"))
    return msg("core.name", name=card)


def is_black(card: str) -> bool:
    return card[-1] in BLACK


def points(card: str) -> int:
    """§4.1: A = 1, 2–10 face value, J and Q 10, black K 15, red K 0."""
    rank = rank_of(card)
    if rank == "A":
        return 1
    if rank in ("J", "Q"):
        return 10
    if rank == "K":
        return 15 if is_black(card) else 0
    return int(rank)


def power(card: str) -> str | None:
    """The power a played card carries; red Kings and low cards have none."""
    if rank_of(card) == "K":
        return LOOK_AND_SWAP if is_black(card) else None
    return POWERS.get(rank_of(card))


def snap_matches(card: str, top: str, mode: str) -> bool:
    """AMB-TA1: same rank (K♥ matches K♠), or with `points` the same scoring value (J = Q = 10)."""
    if mode == "points":
        return points(card) == points(top)
    return rank_of(card) == rank_of(top)


def round_winners(scores: tuple[tuple[str, int], ...], caller: str,
                  all_must_be_le5: bool) -> tuple[str, ...]:
    """§4.5: the caller wins alone iff at most 5 and strictly lowest; else the lowest of the others.

    AMB-TA13: a failed caller is left out even with the lowest score. AMB-TA14: ties among the
    others are co-winners. AMB-TA18: with the option, a winner needs at most 5 too (else nobody).
    """
    called = dict(scores)[caller]
    others = tuple((seat, score) for seat, score in scores if seat != caller)
    if called <= CALL_LIMIT and all(called < score for _, score in others):
        return (caller,)
    ranking = rank(others, lowest=True)
    if all_must_be_le5 and ranking.best > CALL_LIMIT:
        return ()
    return ranking.leaders


# ---- match mode (AMB-TA19): match=single|rounds:N|threshold:T -------------------

def parse_match(text: str) -> tuple[str, int]:
    """(`single`, 0), (`rounds`, N) or (`threshold`, T); ValueError if the text is neither."""
    if text == "single":
        return "single", 0
    mode, _, number = text.partition(":")
    if mode not in ("rounds", "threshold") or not number.isdigit() or int(number) < 1:
        raise ValueError(text)
    return mode, int(number)


def check_match(text: str) -> str | None:
    """The option check: None when the text is a match mode, else the reason."""
    try:
        parse_match(text)
    except ValueError:
        return f"{text!r} is not single, rounds:N or threshold:T"
    return None


def match_over(text: str, rounds_played: int, totals: tuple[tuple[str, int], ...]) -> bool:
    """§4.5: after N rounds, or at the end of the round in which someone reaches T."""
    mode, limit = parse_match(text)
    if mode == "rounds":
        return rounds_played >= limit
    if mode == "threshold":
        return any(total >= limit for _, total in totals)
    return True

