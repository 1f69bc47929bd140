"""How each game looks on the device beyond its prompts: header name and badge, setup steps,
ranking. Each game declares its look in its GameSpec, and each screen is given the spec of the
game it shows: nothing here names a game or looks one up."""
from __future__ import annotations

from engine.core.outcomes import Tally
from engine.core.spec import GameSpec
from engine.core.text import DEFAULT_LANGUAGE, Msg, catalog, msg


def header_name(spec: GameSpec) -> Msg:
    """The game's name in the header, in capitals, with room left for the badge."""
    return spec.look.name or msg("core.name", name=spec.title.upper())


def menu_name(spec: GameSpec) -> Msg:
    """The game's name on a menu's line, which holds 19 characters beside its marker and a
    scroll mark: the short form its catalog writes as `game.<id>.short` ("L'Auberge") where
    the whole name is longer, else the name."""
    short = f"game.{spec.id}.short"
    return msg(short) if short in catalog(DEFAULT_LANGUAGE) else spec.name()


def badge(spec: GameSpec, tally: Tally) -> Msg | None:
    """The header's right side: the figure a table glances at most."""
    return spec.look.badge(tally)


def ranking(spec: GameSpec, tally, winners: tuple[str, ...],
            places: tuple[str, ...] = ()) -> list[tuple[int, str, int | None, bool]]:
    """(rank, name, score, out): winners first, then the others best first ("best" is lowest
    where the game's look says so). Equals share a rank, as co-winners do: 1, 1, 3. A game
    that places every seat itself (`places`, its result's) is ranked in that order."""
    if places:
        lines = {p.name: p for p in tally.players}
        return [(n, name, lines[name].score, lines[name].out) for n, name in enumerate(places, 1)]
    sign = 1 if spec.look.lowest_wins else -1

    def standing(p):
        return (p.name not in winners, sign * (p.score if p.score is not None else 0), p.out)

    players = sorted(tally.players, key=standing)
    rows, rank = [], 0
    for n, p in enumerate(players, 1):
        if n == 1 or standing(p) != standing(players[n - 2]):
            rank = n
        rows.append((rank, p.name, p.score, p.out))
    return rows
