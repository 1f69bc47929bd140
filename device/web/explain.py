"""What the page says beside a setup step that the OLED has no room for: at the game select,
the highlighted game's name and player counts; on the house rules, what the highlighted one
decides, in the words of the game's own rules.md (`tabletop guide rules` shows the same)."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from device.ui.game_select import GameSelect, games
from device.ui.wizard import HouseRules, PlayerCount

MEANING_LINE = re.compile(r"^- `(\w+)`: (.+)$")     # a house rule's line in a game's rules.md


@lru_cache(maxsize=16)
def meanings(home: str) -> dict[str, str]:
    """What each house rule decides, by option key, from the game package's rules.md."""
    try:
        text = resources.files(home).joinpath("rules.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError):
        return {}
    return {m[1]: m[2] for line in text.splitlines() if (m := MEANING_LINE.match(line))}


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
