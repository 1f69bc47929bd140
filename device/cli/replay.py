"""`tabletop replay`: run an event script through a Session, and print what each line did.

A rejected event does not stop the replay: it is recorded with its line and
the next line runs. Directive errors raise ScriptError ("line N: reason").
A script with lines only the device plays (press, hold, wait, place, lift) runs
on a simulated table instead (replay_table), each line as the simulator reads it.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import engine
import seeds
from device.config.problems import one_line, os_reason
from device.paths import given_bytes
from device.storage.summary import summary
from device.texts import say
from engine import Accepted, ConfigError, Info, Rejected, Session
from engine.core.script import Script, ScriptError, ScriptStep, parse_script
from engine.core.spec import GameConfig, GameSpec
from engine.core.text import DEFAULT_LANGUAGE, render

from .refusal import REFUSAL, failed_json, unreadable
from .replay_table import StepRecord, on_table
from .tally import tally_lines


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    replay = subparsers.add_parser("replay", help="cli.help.replay")
    replay.add_argument("script", type=Path, help="cli.help.script")
    replay.add_argument("--json", action="store_true", help="cli.help.json")
    replay.set_defaults(handler=lambda args: replay_command(args.script, args.json, args.language))
    replay.__class__ = usage_in_json(type(replay))


def usage_in_json(parser: type[argparse.ArgumentParser]) -> type[argparse.ArgumentParser]:
    """`parser`, answering a command line that asked for --json with JSON when the line does
    not parse (no script, an unknown flag): `{"error": ..., "file": null, "line": null}` on
    stdout and exit 2, as for a script that cannot run, never the usage text."""
    class JsonUsage(parser):                                    # type: ignore[valid-type,misc]
        wants_json = False

        def parse_known_args(self, args=None, namespace=None):
            self.wants_json = "--json" in (args or ())
            found, extra = super().parse_known_args(args, namespace)
            if extra and self.wants_json:       # the top parser would print its usage for them
                self.error(argparse._("unrecognized arguments: %s") % " ".join(extra))
            return found, extra

        def error(self, message: str):
            if self.wants_json:
                raise SystemExit(failed_json(message, file=None, line=None))
            super().error(message)
    return JsonUsage


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
        assert step.event is not None         # a step that is neither undo nor redo plays one
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
    if any(step.kind == "device" for step in script.steps):
        return Replay(session, on_table(session, script.steps, language), language)
    return Replay(session, [run_step(session, step, language) for step in script.steps], language)


def report(replay: Replay) -> dict:
    """The JSON object of `tabletop replay --json`."""
    session = replay.session
    out = summary(session.spec, session.state, replay.language)
    out["rejected"] = [{"line": r.line, "code": r.code, "message": r.messages[0]}
                       for r in replay.rejected]
    return out


def print_replay(replay: Replay, out=print) -> None:
    for record in replay.records:
        mark = {"ok": " ", "info": "i", "rejected": "!"}[record.verdict]
        code = f" {record.code}" if record.code else ""
        texts = " / ".join(m.replace("\n", " ") for m in record.messages)
        out(f"{record.line:4} {mark} {record.text:<22}{code} {texts}".rstrip())
    out("")
    for line in tally_lines(replay.session.spec, replay.session.state, replay.language):
        out(line)


def replay_command(path: Path, as_json: bool, language: str = DEFAULT_LANGUAGE) -> int:
    """Replay a script file; a file that cannot be replayed is one line on stderr, or with
    --json one JSON object on stdout (`error`, `file`, and `line` when one is to blame)."""
    try:
        data = given_bytes(path)
    except OSError as exc:
        if as_json:
            said = say(language, "cli.cannot_read", path=path, why=render(os_reason(exc), language))
            return failed_json(said.removeprefix("tabletop: "), file=str(path), line=None)
        return unreadable(language, path, exc)
    try:
        text = data.decode("utf-8")
        result = replay_text(text, language=language)
    except UnicodeDecodeError as exc:
        return _script_failed(path, ScriptError(data[:exc.start].count(b"\n") + 1, "not UTF-8 text"),
                              as_json)
    except ScriptError as exc:
        return _script_failed(path, exc, as_json)
    if as_json:
        print(json.dumps(report(result), ensure_ascii=False))
    else:
        print_replay(result)
    return 0


def _script_failed(path: Path, exc: ScriptError, as_json: bool) -> int:
    if as_json:
        return failed_json(f"{path}: {exc}", file=str(path), line=exc.line)
    print(f"{path}: {one_line(exc, REFUSAL)}", file=sys.stderr)
    return 2
