"""How each game looks on the device beyond its prompts: header name and badge, setup steps,
ranking."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core.text import DEFAULT_LANGUAGE, Msg, catalog, msg


@dataclass(frozen=True)
class View:
    name: Msg | None = None             # the header's name: the title in capitals, or shorter
    asks_first: Msg | None = None       # the setup asks who starts (or holds the Button)
    deal: Msg | None = None             # the instruction shown before the first prompt
    lowest_wins: bool = False


VIEWS = {
    "palourde": View(name=msg("ui.name.palourde")),
    "auberge": View(name=msg("ui.name.auberge"), deal=msg("ui.deal.auberge")),
    "tribord": View(name=msg("ui.name.tribord"), asks_first=msg("ui.button_holder"),
                    deal=msg("ui.deal.tribord")),
    "tamalou": View(name=msg("ui.name.tamalou"), asks_first=msg("ui.first_player"),
                    deal=msg("ui.deal.tamalou"), lowest_wins=True),
    "flouk": View(name=msg("ui.name.flouk"), deal=msg("ui.deal.flouk")),
}


def view(game: str) -> View:
    return VIEWS.get(game, View())


def title(spec) -> Msg:
    """The game's name in the table's language (À tribord ! in French)."""
    key = f"game.{spec.id}"
    return msg(key) if key in catalog(DEFAULT_LANGUAGE) else msg("core.name", name=spec.title)


def header_name(spec) -> Msg:
    """The game's name in the header, in capitals, with room left for the badge."""
    return view(spec.id).name or msg("core.name", name=spec.title.upper())


def badge(game: str, details: dict) -> Msg | None:
    """The header's right side: the figure a table glances at most."""
    if game == "palourde":
        return msg("ui.badge.tide", n=details.get("high_tides_up", 0))
    if game == "tribord":
        return msg("ui.badge.pot", pot=details.get("pot", 0), round=details.get("round", 1))
    if game == "flouk":
        return flouk_badge(details)
    if game == "tamalou" and details.get("phase") == "reveal":
        seats = list(details["counts"])         # squares are revealed in seat order
        return msg("ui.badge.reveal", i=seats.index(details["current"]) + 1, n=len(seats))
    if game == "tamalou" and details.get("round"):
        return msg("ui.badge.round", round=details["round"])
    current = details.get("current")
    return msg("core.name", name=current) if current else None


def flouk_badge(details: dict) -> Msg:
    """Round and turn; while a reveal resolves, the step too ("R2 T3 Chiefs")."""
    round_, turn, step = details.get("round", 1), details.get("turn", 1), details.get("step")
    if step:
        return msg("ui.badge.round_turn_step", round=round_, turn=turn, step=msg(f"fl.step.{step}"))
    return msg("ui.badge.round_turn", round=round_, turn=turn)


def ranking(game: str, tally, winners: tuple[str, ...]) -> list[tuple[int, str, int | None, bool]]:
    """(rank, name, score, out): winners first, then the others best first ("best" is lowest in
    Tamalou). Equals share a rank, as co-winners do: 1, 1, 3."""
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
