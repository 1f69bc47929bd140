"""`tabletop replay`: run an event script (DESIGN.md §6.2) through a Session.

A rejected event does not stop the replay: it is recorded with its line and
the next line runs. Directive errors raise ScriptError ("line N: reason").
"""
from __future__ import annotations

from dataclasses import dataclass, field

import engine
import seeds
from engine import Accepted, ConfigError, Info, Rejected, Session
from engine.core.script import Script, ScriptError, ScriptStep, parse_script
from engine.core.spec import GameConfig, GameSpec
from engine.core.text import DEFAULT_LANGUAGE


@dataclass
class StepRecord:
    """What one event line did: accepted (with messages), rejected, or shown only."""

    line: int
    text: str
    verdict: str                     # "ok" | "rejected" | "info"
    messages: list[str] = field(default_factory=list)
    code: str | None = None


@dataclass
class Replay:
    session: Session
    records: list[StepRecord]
    language: str = DEFAULT_LANGUAGE          # of the messages, and of the report's texts

    @property
    def rejected(self) -> list[StepRecord]:
        return [r for r in self.records if r.verdict == "rejected"]


def config_from_script(script: Script, data=None) -> tuple[GameSpec, GameConfig]:
    """The directives as a checked config; ScriptError naming the directive's line.

    `data` is the game's card data; by default the shipped seeds file's.
    """
    try:
        spec = engine.get(script.game or "")
    except KeyError as exc:
        raise ScriptError(script.directive_lines.get("game", 1), str(exc.args[0])) from None
    if data is None:
        data = seeds.game_data(spec.id, spec.deck)
    try:
        config = engine.make_config(spec, script.players, script.first, script.options, data)
    except ConfigError as exc:
        raise ScriptError(_line_of(script, str(exc)), str(exc)) from None
    return spec, config


def _line_of(script: Script, problem: str) -> int:
    """The directive line a config problem comes from."""
    for key, line in script.option_lines.items():
        if f"option {key}" in problem:
            return line
    if "first player" in problem:
        return script.directive_lines.get("first", 1)
    if "option" in problem:
        return min(script.option_lines.values(), default=1)
    return script.directive_lines.get("players", script.directive_lines.get("game", 1))


def run_step(session: Session, step: ScriptStep, language: str = DEFAULT_LANGUAGE) -> StepRecord:
    if step.kind == "undo":
        outcome, text = session.undo(), "undo"
    elif step.kind == "redo":
        outcome, text = session.redo(), "redo"
    else:
        outcome, text = session.play(step.event), str(step.event)
    if isinstance(outcome, Accepted):
        return StepRecord(step.line, text, "ok", [m.text(language) for m in outcome.effects])
    if isinstance(outcome, Info):
        return StepRecord(step.line, text, "info", [outcome.msg.text(language)])
    assert isinstance(outcome, Rejected)
    return StepRecord(step.line, text, "rejected", [outcome.msg.text(language)], outcome.code)


def replay_text(text: str, data=None, language: str = DEFAULT_LANGUAGE) -> Replay:
    """Parse and run a whole script; its messages in `language`."""
    script = parse_script(text)
    spec, config = config_from_script(script, data)
    session = Session(spec, config)
    return Replay(session, [run_step(session, step, language) for step in script.steps], language)


def report(replay: Replay) -> dict:
    """The JSON object of DESIGN.md §6.2."""
    session = replay.session
    out = summary(session.spec, session.state, replay.language)
    out["rejected"] = [{"line": r.line, "code": r.code, "message": r.messages[0]}
                       for r in replay.rejected]
    return out


def summary(spec: GameSpec, state, language: str = DEFAULT_LANGUAGE) -> dict:
    """Game, tally, prompt and result of a state, in the §6.2 form (also `tabletop status`).

    Only the prompt's text follows `language`: ids, keys and names are the same in all."""
    tally = spec.tally(state)
    result = spec.result(state)
    prompt = spec.prompt(state)
    return {
        "game": spec.id,
        "over": result is not None,
        "winners": list(result.winners) if result else [],
        "players": [{"name": p.name, "score": p.score, "out": p.out} for p in tally.players],
        "prompt": {"id": prompt.id, "text": prompt.text.text(language), "options": list(prompt.keys())},
        "rejected": [],
        "details": dict(tally.details),
    }
