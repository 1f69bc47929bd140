"""The pirates deck, shared by L'Auberge des pirates and A tribord!.

Fifty-five cards: value v comes in exactly v copies, for v = 1..10. A pair is
two cards of the same value, so the single 1 can never be part of one (AMB-L5).
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from tabletop_kit import card_ids, kind_of

DECK_FAMILY = "pirates"
COMPONENTS = tuple((str(v), v) for v in range(1, 11))
DECK = frozenset(card_ids(COMPONENTS))
DECK_SIZE = len(DECK)
MIN_PLAYERS, MAX_PLAYERS = 2, 7


@lru_cache(maxsize=1024)   # a pair is looked for among a row's cards at every tap tried
def value(card: str) -> int:
    """A card's value: its kind (`7#3` -> 7, `1` -> 1)."""
    return int(kind_of(card))


def values(cards: Iterable[str]) -> frozenset[int]:
    return frozenset(value(c) for c in cards)


def has_pair(cards: Iterable[str]) -> bool:
    """Do any two of these cards share a value?"""
    seen = [value(c) for c in cards]
    return len(seen) != len(set(seen))


def pairs_with(card: str, cards: Iterable[str]) -> bool:
    """Would `card` make a pair with one of `cards`?"""
    return value(card) in values(cards)


def card_order(card: str) -> tuple[int, int]:
    """Sort key: by value, then copy (`1`, `2#1`, `2#2`, ...)."""
    _, _, copy = card.partition("#")
    return value(card), int(copy or 1)
