"""How each game looks on the device beyond its prompts: header name and badge, setup steps,
ranking. Each game declares its look in its GameSpec; nothing here names a game."""
from __future__ import annotations

from engine.core.outcomes import Tally
from engine.core.registry import all_specs
from engine.core.spec import Look
from engine.core.text import Msg, msg


def view(game: str) -> Look:
    """The look the game declares; a game that declares none gets the plain one."""
    return next((spec.look for spec in all_specs() if spec.id == game), Look())


def header_name(spec) -> Msg:
    """The game's name in the header, in capitals, with room left for the badge."""
    return spec.look.name or msg("core.name", name=spec.title.upper())


def badge(game: str, tally: Tally) -> Msg | None:
    """The header's right side: the figure a table glances at most."""
    return view(game).badge(tally)


def ranking(game: str, tally, winners: tuple[str, ...]) -> list[tuple[int, str, int | None, bool]]:
    """(rank, name, score, out): winners first, then the others best first ("best" is lowest
    where the game's look says so). Equals share a rank, as co-winners do: 1, 1, 3."""
    sign = 1 if view(game).lowest_wins else -1

    def standing(p):
        return (p.name not in winners, sign * (p.score if p.score is not None else 0), p.out)

    players = sorted(tally.players, key=standing)
    rows, rank = [], 0
    for n, p in enumerate(players, 1):
        if n == 1 or standing(p) != standing(players[n - 2]):
            rank = n
        rows.append((rank, p.name, p.score, p.out))
    return rows
