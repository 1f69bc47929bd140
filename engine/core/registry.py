"""The registry of games, and which game a card id belongs to."""
from __future__ import annotations

from .spec import GameSpec

_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.id in _GAMES:
        raise ValueError(f"game {spec.id} registered twice")
    _GAMES[spec.id] = spec
    _CARD_INDEX.clear()
    return spec


def get(game_id: str) -> GameSpec:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r} (known: {', '.join(sorted(_GAMES))})") from None


def all_specs() -> tuple[GameSpec, ...]:
    return tuple(_GAMES.values())


# canonical card id -> deck families that hold it; plus a case-folded lookup.
_CARD_INDEX: dict[str, dict[str, object]] = {}


def _index() -> dict[str, dict[str, object]]:
    if not _CARD_INDEX:
        exact: dict[str, set[str]] = {}
        folded: dict[str, str] = {}
        for spec in _GAMES.values():
            for card in spec.card_ids():
                exact.setdefault(card, set()).add(spec.deck)
                folded[card.lower()] = card
                if "#" not in card:
                    folded[f"{card.lower()}#1"] = card   # a single-copy kind also accepts #1
        _CARD_INDEX["exact"] = exact   # type: ignore[assignment]
        _CARD_INDEX["folded"] = folded  # type: ignore[assignment]
    return _CARD_INDEX


def canonical_card(card: str) -> str | None:
    """The canonical id of a card of any registered game, or None if no game knows it."""
    index = _index()
    if card in index["exact"]:
        return card
    return index["folded"].get(card.lower())  # type: ignore[union-attr]


def decks_of(card: str) -> frozenset[str]:
    """The deck families a canonical card id belongs to."""
    return frozenset(_index()["exact"].get(card, ()))  # type: ignore[union-attr]
