"""The café's house-rule defaults and language for this table, kept in the state dir.

The café's back office sends them (device/fleet/defaults.py); the next game's setup starts
from them (the house-rules menu shows them, the players may still change them), and the
table takes the language once no game runs. `checked` is the one check of such defaults,
at the café before they are signed and at the table before they are kept: every game known,
every option one of its own with a value its rules take, a player count left possible, a
language the table speaks. Anything else is refused whole, in one line.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import engine
from device.paths import write_atomic
from engine.core.catalog import LANGUAGES
from engine.core.options import ConfigError, OptionSpec, resolve_options
from engine.core.spec import GameSpec

from . import quarantine

log = logging.getLogger(__name__)

FILE = "house-defaults.json"
KINDS: dict[str, type] = {"bool": bool, "int": int, "choice": str, "text": str}
MOST_TEXT = 200                    # a text house rule is a word or a few, never a page


class DefaultsRefused(ValueError):
    """Defaults that are not a game's: why, in one line."""


@dataclass(frozen=True)
class HouseDefaults:
    """Per game id, its options' values (only those the café sets); the table's language
    (None: left as the staff chose it); `language_due` while the table has not taken it."""

    games: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    language: str | None = None
    language_due: bool = False

    def plain(self) -> dict:
        return {"games": {g: dict(o) for g, o in self.games.items()}, "language": self.language}


def checked(games: object, language: object, specs: Mapping[str, GameSpec] | None = None) -> HouseDefaults:
    """The defaults as given, each value checked against its game's rules; DefaultsRefused."""
    specs = specs if specs is not None else {spec.id: spec for spec in engine.all_specs()}
    if language is not None and language not in LANGUAGES:
        raise DefaultsRefused(f"language {str(language)[:20]!r} is not one of {', '.join(LANGUAGES)}")
    if not isinstance(games, dict):
        raise DefaultsRefused("the games' defaults are not an object of game ids")
    taken = {}
    for game, options in games.items():
        spec = specs.get(game)
        if spec is None:
            raise DefaultsRefused(f"{str(game)[:40]!r} is not a game of this table")
        taken[game] = game_options(spec, options)
    return HouseDefaults(taken, language)


def game_options(spec: GameSpec, options: object) -> dict[str, object]:
    """One game's options as given, each of its kind and within its rules; DefaultsRefused."""
    if not isinstance(options, dict):
        raise DefaultsRefused(f"{spec.id}: the options are not an object of option keys")
    by_key = {option.key: option for option in spec.options}
    for key, value in options.items():
        option = by_key.get(key)
        if option is None:
            raise DefaultsRefused(f"{spec.id}: {str(key)[:40]!r} is not one of its options")
        _value(spec, option, value)
    try:
        low, high = spec.player_range(resolve_options(spec.options, options))
    except ConfigError as exc:
        raise DefaultsRefused(f"{spec.id}: {exc}") from None
    if low > high:
        raise DefaultsRefused(f"{spec.id}: these options leave no player count possible")
    return dict(options)


def _value(spec: GameSpec, option: OptionSpec, value: object) -> None:
    kind = KINDS.get(option.kind, str)
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
        raise DefaultsRefused(f"{spec.id}: option {option.key} takes {option.describe()}, "
                              f"not {json.dumps(value)[:40]}")
    if isinstance(value, str) and len(value) > MOST_TEXT:
        raise DefaultsRefused(f"{spec.id}: option {option.key} is longer than {MOST_TEXT} characters")
    try:
        parsed = option.parse(value)
    except ConfigError as exc:
        raise DefaultsRefused(f"{spec.id}: {exc}") from None
    if parsed != value:                    # text the rules would read otherwise (" 3 ")
        raise DefaultsRefused(f"{spec.id}: option {option.key} is not written as its rules write it")


def kept(state_dir: Path) -> HouseDefaults:
    """What the café last sent this table (none: no defaults); a file that does not read, or
    that this table's games no longer take, is set aside in one line."""
    path = Path(state_dir) / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return HouseDefaults()
    except OSError as exc:
        log.warning("%s ignored: %s", FILE, exc.strerror or exc)
        return HouseDefaults()
    except (ValueError, RecursionError) as exc:
        quarantine.refuse(Path(state_dir), path, f"not the café's house rules ({exc})")
        return HouseDefaults()
    try:
        if not (isinstance(data, dict) and set(data) == {"games", "language", "language_due"}
                and isinstance(data["language_due"], bool)):
            raise DefaultsRefused("not the café's house rules")
        found = checked(data["games"], data["language"])
    except DefaultsRefused as exc:
        quarantine.refuse(Path(state_dir), path, str(exc))
        return HouseDefaults()
    return HouseDefaults(found.games, found.language, data["language_due"] and found.language is not None)


def keep(state_dir: Path, defaults: HouseDefaults) -> None:
    """Replace what is kept (OSError when the disk refuses: the caller says so)."""
    write_atomic(Path(state_dir) / FILE, json.dumps(
        {**defaults.plain(), "language_due": defaults.language_due}, ensure_ascii=False, sort_keys=True))


def game_defaults(state_dir: Path, spec: GameSpec) -> dict[str, object]:
    """The options a new setup of `spec` starts from: the café's for it, else none."""
    return dict(kept(state_dir).games.get(spec.id, {}))
