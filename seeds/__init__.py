"""Game data derived from the rulebooks: one component manifest (TOML) per physical deck.

Each manifest lies in the package of the game that owns the deck (`deck.toml`, shipped as
package data); the registry's GameSpecs say which package that is, so a deck is known here
as soon as its game is installed.

A manifest names each kind of card and its copies (`[kinds.<kind>]`), or lists
the cards one by one (`[cards."<card id>"]`, Flouk's card data). Loading checks
the counts against the rules' own component table, so a wrong file is caught
before a game starts.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.core.registry import all_specs
from engine.core.registry import decks as owners

from .card_files import check_card_file, check_learned


class ManifestError(ValueError):
    """A manifest that does not match the rules; the text names the kind and both numbers."""


@dataclass(frozen=True)
class Manifest:
    deck: str
    title: str
    kinds: dict[str, dict[str, Any]]      # kind -> {"copies": n, "name": ..., ...}
    cards: dict[str, dict[str, Any]]      # card id -> its data (Flouk), else empty
    notes: str = ""                       # what docs/cards.md says below the deck's table

    def counts(self) -> dict[str, int]:
        if self.cards:
            counts: dict[str, int] = {}
            for card in self.cards:
                kind = card.split("#", 1)[0]
                counts[kind] = counts.get(kind, 0) + 1
            return counts
        return {kind: int(data.get("copies", 1)) for kind, data in self.kinds.items()}

    def name(self, kind: str) -> str:
        return str(self.kinds.get(kind, {}).get("name", kind))


def decks() -> tuple[str, ...]:
    """Every deck family a registered game plays, in the game menu's order."""
    return tuple(owners())


def source(deck: str) -> str:
    """Where a deck's manifest lies, as an error names it: `palourde/deck.toml`."""
    spec = owners().get(deck)
    home = spec.manifest_home() if spec else deck
    return f"{home.rpartition('.')[2]}/deck.toml"


def read_text(deck: str) -> str:
    spec = owners().get(deck)
    if spec is None:
        raise ManifestError(f"no deck named {deck!r} (decks: {', '.join(decks())})")
    return resources.files(spec.manifest_home()).joinpath("deck.toml").read_text(encoding="utf-8")


def parse(deck: str, text: str) -> Manifest:
    try:
        data = _copied(_toml(text))             # the caller's own: it may change what it gets
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{source(deck)}: {exc}") from None
    return Manifest(deck, str(data.get("title", deck)), dict(data.get("kinds", {})),
                    dict(data.get("cards", {})), str(data.get("notes", "")))


def _copied(value: Any) -> Any:
    """A copy of TOML data, as deepcopy makes it at a fraction of its cost: its tables and
    arrays are the only values that change (strings, numbers and dates do not)."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


@lru_cache(maxsize=32)
def _toml(text: str) -> dict[str, Any]:
    """A manifest's text read once: each game's start reads its deck's (Flouk's takes 7 ms)."""
    return tomllib.loads(text)


def check(manifest: Manifest) -> Manifest:
    """Compare the manifest's counts with every game that plays this deck."""

    owner = owners().get(manifest.deck)      # named first: its package holds the manifest
    specs = sorted((s for s in all_specs() if s.deck == manifest.deck), key=lambda s: s is not owner)
    counts = manifest.counts()
    for spec in specs:
        expected = dict(spec.components)
        for kind in sorted(set(expected) | set(counts)):
            want, have = expected.get(kind, 0), counts.get(kind, 0)
            if kind not in expected and kind in {c.split("#")[0] for c in spec.extra_cards}:
                continue
            if want != have:
                raise ManifestError(f"{source(manifest.deck)}: kind {kind!r} has {have} cards, "
                                    f"{spec.title} needs {want}")
    return manifest


def load(deck: str, text: str | None = None) -> Manifest:
    """The checked manifest of `deck`, from the shipped file unless `text` is given."""
    return check(parse(deck, read_text(deck) if text is None else text))


def game_data(game: str, deck: str, text: str | None = None) -> dict | None:
    """The card data a game's rules read (Flouk's `[cards]` tables), or None if the deck has none.

    `text` is a café's own card file, if it has one; else the shipped file is read. The rules
    check the data themselves (GameSpec.data_check), naming the card and field at fault.
    """
    manifest = parse(deck, read_text(deck) if text is None else text)
    return {"cards": manifest.cards} if manifest.cards else None


def card_file_problems(deck: str, text: str) -> list[str]:
    """What is wrong with a café's card file for `deck`, each problem naming the card and field.
    Only a deck whose cards carry printed details (Flouk's) has such a file."""
    judge = next((s.card_problems for s in all_specs() if s.deck == deck and s.card_problems), None)
    if judge is None:
        return [f"the {deck} deck has no card data file"]
    return check_card_file(judge, text)


def learned_problems(deck: str, details) -> tuple[dict, list[str]]:
    """The good part of a deck's learned card details, and what is wrong with the rest.
    Only a deck whose cards carry printed details (Flouk's) has details a table learns."""
    judge = next((s.detail_problem for s in all_specs() if s.deck == deck and s.detail_problem), None)
    if judge is None:
        return {}, [f"the {deck} deck has no details to learn"]
    return check_learned(judge, details)


def with_learned(data: dict, details: dict) -> dict:
    """Card data with learned details filled in where the card file says `unknown` (or gives
    no white number); a detail the file states is never overridden."""
    cards = {card: dict(table) for card, table in data["cards"].items()}
    for card, found in details.items():
        table = cards.get(card)
        if not isinstance(table, dict):
            continue
        for detail, value in found.items():
            if table.get(detail, "unknown") == "unknown":
                table[detail] = value
    return {"cards": cards}
