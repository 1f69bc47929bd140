"""A game's tally as the command line prints it: the prompt or the end, a line a player, the
winners. `replay` prints it after its lines, `status` for the table's game; it imports no
table, so `status` starts quickly."""
from __future__ import annotations

import engine
from device.storage.summary import summary
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE


def tally_lines(spec, state, language: str = DEFAULT_LANGUAGE) -> list[str]:
    return summary_lines(summary(spec, state, language), language)


def summary_lines(info: dict, language: str) -> list[str]:
    """`Palourde: next: Bob: flip 2 cards`, a line a player, then the winners once it is over."""
    game = engine.get(info["game"]).name().text(language)
    lines = [say(language, "cli.tally.over", game=game) if info["over"] else
             say(language, "cli.tally.next", game=game, prompt=info["prompt"]["text"].replace("\n", " "))]
    for p in info["players"]:
        key = "cli.tally.player_out" if p["out"] else "cli.tally.player"
        lines.append(say(language, key, name=p["name"], score="-" if p["score"] is None else p["score"]))
    if info["over"]:
        lines.append(winners_line(info["winners"], language))
    return lines


def winners_line(winners: list[str], language: str) -> str:
    return say(language, "cli.winners", names=winners) if winners else say(language, "cli.no_winners")
