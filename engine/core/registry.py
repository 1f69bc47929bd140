"""The registry of games, and which game a card id belongs to.

Games are found through the entry-point group `tabletop.games`: each entry names a GameSpec
object, and an installed distribution with one such entry adds a game, its texts, its deck
manifest and its docs. The five games of this project register that way too (pyproject.toml).

Discovery runs once, on the first all_specs() or get(). A plug-in that cannot be taken in (it
does not import, is not a GameSpec, takes an id already taken, or its texts are missing in a
language) is left out, and problems() says why in one line each: one bad plug-in never keeps
the table from playing the others.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .. import text as _shared  # noqa: F401  (the texts every game shares, which a game may not rename)
from . import entry_source
from .spec import GameSpec
from .text import LANGUAGES, add_catalog, clashes, fill_with

if TYPE_CHECKING:
    from .entry_source import Entry

GROUP = "tabletop.games"

# Text keys a game may not add to: the words every game shares, and the device's own (its
# screens, command line, kiosk, fleet and dashboard), which change with the device's releases.
# A game names its texts under a prefix of its own ("hc.", "nt."), besides game.<id>,
# deck.<deck>, opt.<key> and opt.value.<value>.
RESERVED = ("core.", "ui.", "cli.", "kiosk.", "fleet.", "dash.", "learn.")

_GAMES: dict[str, GameSpec] = {}
_IN_ORDER: list[tuple[GameSpec, ...]] = []       # all_specs(), kept: the screen asks each frame
_PROBLEMS: list[str] = []
_discovered = False
_TAKEN: set[str] = set()          # entry names get() took in on their own, before discover()


class PluginError(ValueError):
    """A game the registry refuses; the text names the game and the reason."""


def register(spec: GameSpec) -> GameSpec:
    """Take a game in, with its texts; PluginError (nothing changed) if it cannot be."""
    if not isinstance(spec, GameSpec):
        raise PluginError(f"{spec!r} is not a GameSpec")
    if spec.id in _GAMES:
        raise PluginError(f"game {spec.id} registered twice")
    problem = texts_problem(spec)
    if problem:
        raise PluginError(f"game {spec.id}: {problem}")
    for language, entries in spec.texts.items():
        add_catalog(language, entries)
    _GAMES[spec.id] = spec
    _IN_ORDER.clear()
    _DECKS_OF.clear()
    _FOLDED.clear()
    return spec


def texts_problem(spec: GameSpec) -> str | None:
    """What is wrong with a game's texts: a language missing, a key one language has and
    another lacks, a key that already means something else or one of the companion's own
    (RESERVED); None if they are good."""
    missing = [lang for lang in LANGUAGES if not spec.texts.get(lang)]
    if missing:
        return f"no texts in {', '.join(missing)}"
    keys = {lang: set(entries) for lang, entries in spec.texts.items()}
    for lang, have in keys.items():
        for other, theirs in keys.items():
            lacking = sorted(theirs - have)
            if lacking:
                return f"{lang} texts lack {len(lacking)} that {other} has: {', '.join(lacking[:3])}"
    for lang, entries in spec.texts.items():
        taken = clashes(lang, entries)
        if taken:
            return f"{lang} texts redefine keys: {', '.join(taken[:3])}"
    reserved = sorted(key for key in keys.get(LANGUAGES[0], ()) if key.startswith(RESERVED))
    if reserved:
        return f"texts use the companion's own keys: {', '.join(reserved[:3])}"
    return None


def discover() -> None:
    """Take in every game of the entry-point group, once; refusals go to problems()."""
    global _discovered
    if not _discovered:
        _discovered = True
        _PROBLEMS.extend(take_in(entry for entry in _entries() if entry.name not in _TAKEN))


def _entries() -> Iterable[Entry]:
    if entry_source.READERS:
        return entry_source.READERS[0](GROUP)
    from importlib.metadata import entry_points  # here: a command that lists no game starts without it
    return entry_points(group=GROUP)


def take_in(entries: Iterable[Entry]) -> list[str]:
    """Register the GameSpec each entry names, in name order; one line for each one refused."""
    refused = []
    for entry in sorted(entries, key=lambda e: e.name):
        try:
            register(entry.load())
        except PluginError as exc:
            refused.append(f"game plug-in {entry.name} refused: {exc}")
        except Exception as exc:      # a plug-in's own bug must not keep the table from the others
            refused.append(f"game plug-in {entry.name} ({entry.value}) did not load: "
                           f"{type(exc).__name__}: {exc}")
    return refused


fill_with(discover)


def problems() -> tuple[str, ...]:
    """One line for each game plug-in that was refused, for the device or CLI to show."""
    discover()
    return tuple(_PROBLEMS)


def get(game_id: str) -> GameSpec:
    if game_id not in _GAMES and not _discovered and game_id not in _TAKEN:
        # the entry named as the game, alone: a command about one game (`tabletop status`)
        # starts without importing the others; any other lookup takes them all in
        _TAKEN.add(game_id)
        _PROBLEMS.extend(take_in(entry for entry in _entries() if entry.name == game_id))
    if game_id not in _GAMES:
        discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r} (known: {', '.join(sorted(_GAMES))})") from None


def all_specs() -> tuple[GameSpec, ...]:
    """Every game taken in, in the game menu's order."""
    discover()
    if not _IN_ORDER:
        _IN_ORDER.append(tuple(sorted(_GAMES.values(), key=lambda spec: (spec.order, spec.id))))
    return _IN_ORDER[0]


def built_in() -> tuple[GameSpec, ...]:
    """The games this project ships (engine/games), in menu order, without any installed from
    elsewhere: what its own docs, goldens and tests cover."""
    return tuple(spec for spec in all_specs() if spec.home.startswith("engine.games."))


def decks() -> dict[str, GameSpec]:
    """deck family -> the game whose package holds its manifest (the first such, in menu order)."""
    owners: dict[str, GameSpec] = {}
    for spec in all_specs():
        if not spec.manifest_from or spec.manifest_from == spec.home:
            owners.setdefault(spec.deck, spec)
    for spec in all_specs():
        owners.setdefault(spec.deck, spec)
    return owners


# canonical card id -> deck families that hold it, and a case-folded id -> canonical id; both
# filled on first use after a registration.
_DECKS_OF: dict[str, frozenset[str]] = {}
_FOLDED: dict[str, str] = {}


def _index() -> None:
    if _DECKS_OF:
        return
    for spec in all_specs():
        for card in spec.card_ids():
            _DECKS_OF[card] = _DECKS_OF.get(card, frozenset()) | {spec.deck}
            _FOLDED[card.lower()] = card
            if "#" not in card:
                _FOLDED[f"{card.lower()}#1"] = card   # a single-copy kind also accepts #1


def canonical_card(card: str) -> str | None:
    """The canonical id of a card of any registered game, or None if no game knows it."""
    _index()
    return card if card in _DECKS_OF else _FOLDED.get(card.lower())


def decks_of(card: str) -> frozenset[str]:
    """The deck families a canonical card id belongs to."""
    _index()
    return _DECKS_OF.get(card, frozenset())
