"""A deck file: the families of cards the games play, tag UIDs and card ids, and the TOML
form of one physical deck:

    deck = "cafe1"
    family = "palourde"
    [tags]
    04A1B2C3D4E5F6 = "clam#1"

Every field is checked as it is read; an error names the line, tag and card.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

import tomli_w

import engine
from device.storage import quarantine
from engine.core.registry import canonical_card, decks_of
from hardware.iso14443 import uid_of_text

SIM_PREFIX = "sim-"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")



class DeckError(ValueError):
    """A deck operation that cannot be done; the text names the deck, line, tag or card."""


@dataclass(frozen=True)
class Deck:
    name: str
    family: str
    tags: dict[str, str]             # UID -> canonical card id


@dataclass(frozen=True)
class Family:
    """A physical deck family and the cards a complete deck of it holds."""

    name: str
    games: tuple[str, ...]           # game ids that play it (pirates: auberge, tribord)
    cards: tuple[str, ...]           # needed for completeness, in the rules' order
    extras: tuple[str, ...]          # known but optional: the title card, jokers


# ---------------------------------------------------------------------------------------------
# Families and card ids, from the registered games.

def families() -> dict[str, Family]:
    """Every deck family some registered game plays."""
    specs = engine.all_specs()
    if _FAMILIES[0] is not specs:        # worked out again only when another game is taken in
        _FAMILIES[:] = [specs, _families_of(specs)]
    return dict(_FAMILIES[1])


_FAMILIES: list = [None, {}]             # (the games they were worked out from, the families)


def _families_of(specs) -> dict[str, Family]:
    found: dict[str, tuple[dict[str, None], dict[str, None], dict[str, None]]] = {}
    for spec in specs:
        games, cards, extras = found.setdefault(spec.deck, ({}, {}, {}))    # ordered sets
        games[spec.id] = None
        cards.update((c, None) for c in spec.card_ids() if c not in spec.extra_cards)
        extras.update((c, None) for c in spec.extra_cards)
    return {name: Family(name, tuple(g), tuple(c), tuple(e for e in x if e not in c))
            for name, (g, c, x) in found.items()}


def family_for(name: str) -> Family:
    """The family named `name`, or the one the game `name` plays."""
    known = families()
    if name in known:
        return known[name]
    for family in known.values():
        if name in family.games:
            return family
    games = sorted(g for f in known.values() for g in f.games)
    raise DeckError(f"no game or deck family named {name!r} (games: {', '.join(games)})")


def card_in(family: str, card: str) -> str | None:
    """The canonical id of `card` if it is a card of `family`, else None."""
    canonical = canonical_card(card.strip())
    return canonical if canonical and family in decks_of(canonical) else None


def normalize_uid(text: str) -> str:
    """A UID as uppercase hex (hardware/iso14443.py); DeckError if it is not one."""
    try:
        return uid_of_text(text)
    except ValueError as exc:
        raise DeckError(str(exc)) from None


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise DeckError(f"{name!r} is not a deck name (letters, digits, - and _, up to 32)")
    if name.startswith(SIM_PREFIX):
        raise DeckError(f"deck names starting with {SIM_PREFIX!r} are kept for the simulator")
    return name


# ---------------------------------------------------------------------------------------------
# The file form.

def deck_text(deck: Deck) -> str:
    """The TOML of a deck file (also the export form), tags in the rules' card order."""
    family = families().get(deck.family)
    order = {card: n for n, card in enumerate(family.cards + family.extras)} if family else {}
    tags = dict(sorted(deck.tags.items(), key=lambda item: (order.get(item[1], len(order)), item[1])))
    head = (f"# Tabletop deck {deck.name!r} ({deck.family}): tag UID = card id.\n"
            f"# {len(tags)} tags. Share it with `tabletop deck import FILE`.\n")
    return head + tomli_w.dumps({"deck": deck.name, "family": deck.family, "tags": tags})


def parse_deck(text: str, name: str | None = None) -> Deck:
    """A deck from its TOML text, every field checked; errors name the line, tag and card."""
    data = toml_of(text)
    unknown = sorted(set(data) - {"deck", "family", "tags"})
    if unknown:
        raise DeckError(f"line {line_of(text, unknown[0])}: unknown key {unknown[0]!r} "
                        f"(a deck has deck, family and [tags])")
    family = data.get("family")
    if not isinstance(family, str) or family not in families():
        raise DeckError(f"line {line_of(text, 'family')}: family {family!r} is not one of "
                        f"{', '.join(sorted(families()))}")
    deck_name = name or data.get("deck")
    if not isinstance(deck_name, str):
        raise DeckError("the deck has no name: add deck = \"NAME\"")
    tags = data.get("tags", {})
    if not isinstance(tags, dict):
        raise DeckError(f"line {line_of(text, 'tags')}: tags must be a table [tags]")
    return Deck(check_name(deck_name), family, _parse_tags(text, family, tags))


def toml_of(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except ValueError as exc:         # bad TOML, or a number past 4,300 digits
        raise DeckError(quarantine.cut(exc)) from None
    except RecursionError:            # tables or arrays nested thousands deep
        raise DeckError("tables or arrays nested too deeply") from None


def _parse_tags(text: str, family: str, raw: dict) -> dict[str, str]:
    tags: dict[str, str] = {}
    seen: dict[str, str] = {}
    for key, value in raw.items():
        # the line is looked for only when a tag is wrong: a whole deck's lines for each
        # tag were most of an import
        try:
            uid = normalize_uid(key)
        except DeckError as exc:
            raise DeckError(f"line {line_of(text, key)}: {exc}") from None
        card = card_in(family, value) if isinstance(value, str) else None
        if card is None:
            raise DeckError(f"line {line_of(text, key)}: tag {uid}: {value!r} is not a {family} card")
        if uid in tags:
            raise DeckError(f"line {line_of(text, key)}: tag {uid} is listed twice")
        if card in seen:
            raise DeckError(f"line {line_of(text, key)}: tag {uid}: {card} is already tag {seen[card]}")
        tags[uid], seen[card] = card, uid
    return tags


def line_of(text: str, needle: str) -> int | str:
    """The number of the first line, comments aside, that mentions `needle` (as written if it can)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if not line.lstrip().startswith("#")]
    for number, line in lines:
        if needle in line:
            return number
    for number, line in lines:
        if needle.lower() in line.lower():
            return number
    return "?"
