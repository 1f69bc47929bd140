"""The last game and the last seats, for a rematch: the game select opens on that game, and
"Same players" offers the seats first at the next setup.

One small file in the state dir, written when a game set up through the menus starts (a game
whose players joined by tap, unnamed, keeps the seats known before). A file
that does not read (or is not ours) offers nothing; the table plays on with the usual steps.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from device.paths import write_atomic

log = logging.getLogger(__name__)

FILE = "last_seats.json"
LONGEST = 4096                 # bytes: six seats' names are far less


def remember(state_dir: Path, players: tuple[str, ...], first: str | None,
             game: str | None = None) -> None:
    try:
        write_atomic(state_dir / FILE, json.dumps(
            {"game": game, "players": list(players), "first": first}) + "\n")
    except OSError as exc:
        log.error("players: the last game's seats not kept: %s", exc.strerror or exc)


def _kept(state_dir: Path) -> dict:
    try:
        with open(state_dir / FILE, "rb") as kept:
            data = json.loads(kept.read(LONGEST + 1)[:LONGEST + 1])
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def recall(state_dir: Path) -> tuple[tuple[str, ...], str | None]:
    """The last game's seats in order and who started; ((), None) where none are known."""
    data = _kept(state_dir)
    players, first = data.get("players"), None
    if not (isinstance(players, list) and players and all(
            isinstance(name, str) and name and name.split() == [name] for name in players)
            and len(set(players)) == len(players)):
        return (), None
    if isinstance(data.get("first"), str) and data["first"] in players:
        first = data["first"]
    return tuple(players), first


def last_game(state_dir: Path) -> str | None:
    """The last game set up by the menus (its id, unchecked: the caller highlights it only if
    it knows it), or None."""
    game = _kept(state_dir).get("game")
    return game if isinstance(game, str) else None
