"""The human-readable form of a replay: each line, what it did, then the tally."""
from __future__ import annotations

import engine
from device.ui.game_view import title
from engine.core.text import DEFAULT_LANGUAGE

from device.texts import say
from .replay import Replay, summary


def print_replay(replay: Replay, out=print) -> None:
    for record in replay.records:
        mark = {"ok": " ", "info": "i", "rejected": "!"}[record.verdict]
        code = f" {record.code}" if record.code else ""
        texts = " / ".join(m.replace("\n", " ") for m in record.messages)
        out(f"{record.line:4} {mark} {record.text:<22}{code} {texts}".rstrip())
    out("")
    for line in tally_lines(replay.session.spec, replay.session.state, replay.language):
        out(line)


def tally_lines(spec, state, language: str = DEFAULT_LANGUAGE) -> list[str]:
    return summary_lines(summary(spec, state, language), language)


def summary_lines(info: dict, language: str) -> list[str]:
    """`Palourde: next: Bob: flip 2 cards`, a line a player, then the winners once it is over."""
    game = title(engine.get(info["game"])).text(language)
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
