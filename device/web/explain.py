"""What the page says beside a setup step that the OLED has no room for: at the game select,
the highlighted game's name and player counts; on the house rules, what the highlighted one
decides, in the words of the game's own rules.md (`tabletop guide rules` shows the same)."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from device.ui.game_select import GameSelect, games
from device.ui.house_rules import option_name, value_name
from device.ui.setup_lines import setup_of
from device.ui.wizard import FirstPlayer, HouseRules, PlayerCount, option_numbers
from engine.core.catalog import catalog

from .words import say

MEANING_LINE = re.compile(r"^- `(\w+)`: (.+)$")     # a house rule's line in a game's rules.md


@lru_cache(maxsize=16)
def meanings(home: str) -> dict[str, str]:
    """What each house rule decides, by option key, from the game package's rules.md."""
    try:
        text = resources.files(home).joinpath("rules.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError):
        return {}
    return {m[1]: m[2] for line in text.splitlines() if (m := MEANING_LINE.match(line))}


def pitch(spec, language: str) -> str:
    """The game in one line, in the table's language (device/texts/web_*.py, as docs/rules.md
    tells how it is won); a game installed from elsewhere is told by the first sentence of
    its rules.md."""
    key = f"web.pitch.{spec.id}"
    return say(language, key) if key in catalog(language) else first_sentence(spec.home)


def first_sentence(home: str) -> str:
    try:
        text = resources.files(home).joinpath("rules.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError):
        return ""
    prose = " ".join(text.split("\n\n", 1)[0].split()).removeprefix("**On the device.** ")
    return prose.split(". ", 1)[0].rstrip(".") + "."


def default_range(spec) -> list[int]:
    return list(spec.player_range(tuple((o.key, o.default) for o in spec.options)))


def setup_choices(app) -> dict[str, Any]:
    """What the page's setup offers (GET /api/setup): every game with its line and player
    counts, and the setup on now, if any: its house rules (each with its values and what it
    decides), seats and who starts. Read on the loop's side."""
    on = setup_of(app.mode) if app.session is None else None
    return {"games": [{"id": s.id, "name": s.title, "pitch": pitch(s, app.language),
                       "players": default_range(s)} for s in games()],
            "setup": None if on is None else setup_state(app, on)}


def setup_state(app, setup) -> dict[str, Any]:
    spec, values = setup.spec, setup.house_rules()
    rules = []
    for option in spec.options:
        numbers = option_numbers(option)
        rule: dict[str, Any] = {
            "key": option.key, "name": app.t(option_name(option.key)),
            "value": shown_value(values[option.key]), "meaning": meanings(spec.home).get(option.key, "")}
        if numbers is not None:
            rule["numbers"] = [numbers.start, numbers.stop - 1]
        else:
            rule["values"] = [[shown_value(v), app.t(value_name(v))] for v in option.menu_values()]
        rules.append(rule)
    return {"game": spec.id, "name": spec.title, "players": list(setup.player_range()),
            "rules": rules, "seated": named(setup),
            "first": setup.first,
            "asks_first": app.t(spec.look.asks_first) if spec.look.asks_first else None,
            "step": "first" if isinstance(app.mode, FirstPlayer) else None}


def named(setup) -> list[str]:
    """The seats named from the roster, in order (a seat the table left unnamed, P2, is not
    one the page can tell back)."""
    return [name for seat, name in sorted(setup.seated.items()) if seat <= setup.players]


def shown_value(value: object) -> str:
    """A value as an `option` line gives it back (true/false, numbers, words)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def setup_notes(app) -> dict[str, Any] | None:
    """The highlighted choice of a setup step, explained; None where nothing needs it."""
    mode = app.mode
    if isinstance(mode, GameSelect):
        spec = next((s for s in games() if s.id == mode.menu.key), None)
        if spec is None:
            return None
        low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
        return {"game": spec.title, "players": [low, high]}
    if isinstance(mode, (HouseRules, PlayerCount)):
        spec = mode.setup.spec
        notes: dict[str, Any] = {"game": spec.title, "players": list(mode.setup.player_range())}
        if isinstance(mode, HouseRules) and mode.menu.key in meanings(spec.home):
            notes["rule"] = meanings(spec.home)[mode.menu.key]
        return notes
    return None
