"""Golden playthroughs in the OpenSpiel style: a readable record of a whole game.

Only the `game:`, `players:`, `options:` and `event:` lines are read back; the
rest is regenerated and compared, so a rule change shows up as a reviewable diff.
"""
from __future__ import annotations

import json
from pathlib import Path

import engine
from device.conformance.playouts import default_data, random_playout
from engine import Info, Rejected, Session, make_config
from engine.core.codec import dumps
from engine.core.events import event_from_json, event_to_json

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "goldens"


def render_playthrough(game: str, players: tuple[str, ...], options: dict, events) -> str:
    spec = engine.get(game)
    session = Session(spec, make_config(spec, players, options=options, data=default_data(spec)))
    lines = [f"game: {game}", f"players: {json.dumps(list(players))}",
             f"options: {json.dumps(options, sort_keys=True)}", ""]
    lines += _describe(spec, session.state)
    for n, event in enumerate(events, 1):
        outcome = session.play(event)
        lines += ["", f"# Apply {event}", f"event: {json.dumps(event_to_json(event))}",
                  _outcome_line(outcome)]
        if n <= FULL_STATES or n % STATE_EVERY == 0 or n == len(events):
            lines += _describe(spec, session.state)
    result = spec.result(session.state)
    lines += ["", f"result: {json.dumps({'winners': list(result.winners) if result else None})}"]
    return "\n".join(lines) + "\n"


FULL_STATES = 3      # long games keep the first states, then every 10th (OpenSpiel's thinning)
STATE_EVERY = 10


def _outcome_line(outcome) -> str:
    if isinstance(outcome, Rejected):
        return f"rejected: {outcome.code} {json.dumps(outcome.message, ensure_ascii=False)}"
    if isinstance(outcome, Info):
        return f"info: {json.dumps(outcome.msg.text(), ensure_ascii=False)}"
    return f"effects: {json.dumps([m.text() for m in outcome.effects], ensure_ascii=False)}"


def _describe(spec, state) -> list[str]:
    prompt = spec.prompt(state)
    tally = spec.tally(state)
    return [f"# State {state.seq}: phase {state.phase}",
            f"prompt: {prompt.id} {json.dumps(prompt.text.text(), ensure_ascii=False)} {list(prompt.keys())}",
            "tally: " + "  ".join(f"{p.name}={p.score}{'(out)' if p.out else ''}" for p in tally.players),
            f"state: {dumps(state)}"]


def parse_golden(text: str) -> tuple[str, tuple[str, ...], dict, list]:
    header = {}
    events = []
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        if key in ("game", "players", "options") and key not in header:
            header[key] = value
        elif key == "event":
            events.append(event_from_json(json.loads(value)))
    return header["game"], tuple(json.loads(header["players"])), json.loads(header["options"]), events


def random_golden(game: str, players: int, seed: int) -> str:
    spec = engine.get(game)
    session = random_playout(spec, players, seed)
    names = session.config.players
    return render_playthrough(game, names, {}, session.events)
