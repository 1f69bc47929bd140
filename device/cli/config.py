"""`tabletop config --example` and `tabletop config --check FILE`.

--check lists every problem at once, a `FILE: key: reason` line each, on stderr: the file's
own (a key that does not parse, rules between keys, pins used twice) and what this machine
lacks for it (a fleet.ca_file that cannot be read, a state dir that cannot be written).
Exit status: 0 the table can start with it, 2 it cannot.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.config import ConfigFileError, Problem, example_config
from device.config.loading import config_in, config_text, retired_keys
from device.config.secrets import secret_warnings
from device.config.usable import machine_problems
from device.paths import default_state_dir
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE, render

from .refusal import first_and_more


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `config` command to the `tabletop` parser's subcommands."""
    parser = subparsers.add_parser("config", help="cli.help.config",
                                   description="cli.help.config_description")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--example", action="store_true", help="cli.help.config_example")
    what.add_argument("--check", type=Path, metavar="FILE", help="cli.help.config_check")
    parser.add_argument("--json", action="store_true", help="cli.help.json")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    if args.example:
        sys.stdout.write(example_config())
        return 0
    text = None                     # read once: a pipe (/dev/stdin) has no second reading
    try:
        text = config_text(args.check)
        config, problems = config_in(text, args.check), []
    except ConfigFileError as exc:
        config, problems = exc.partial, exc.problems
    # ignored by the table: said, but not a problem
    notes = retired_keys(text, args.check) if text is not None else []
    if config is not None:          # the file parsed: what this machine lacks for it, too
        problems += [problem.in_file(args.check) for problem in
                     machine_problems(config, config.state_dir or default_state_dir())]
        notes += [problem.in_file(args.check) for problem in secret_warnings(config, args.check)]
    if args.json:
        return _as_json(args, config if not problems else None, problems, notes)
    for problem in [*notes, *problems]:
        print(say(args.language, "cli.problem", problem=problem_line(problem, args.language)),
              file=sys.stderr)
    if problems:
        return 2
    kiosk = say(args.language, "opt.on" if config.kiosk.enabled else "opt.off")
    print(say(args.language, "cli.config.ok", file=args.check, reader=config.reader.kind,
              display=config.display.kind, bus=config.display.bus, kiosk=kiosk))
    return 0


def _as_json(args: argparse.Namespace, config, problems: list[Problem], notes: list[Problem]) -> int:
    """`config --check --json`: whether the table can start with the file, each problem and
    note with its key and its line in the chosen language, and the parts it would use."""
    def listed(found: list[Problem]) -> list[dict]:
        return [{"key": p.key or None, "file": str(p.file) if p.file else None,
                 "message": problem_line(p, args.language)} for p in found]
    parts = None if config is None else {
        "reader": config.reader.kind, "display": config.display.kind, "bus": config.display.bus,
        "kiosk": config.kiosk.enabled, "fleet": config.fleet.enabled}
    print(json.dumps({"file": str(args.check), "ok": not problems, "problems": listed(problems),
                      "notes": listed(notes), "parts": parts}, ensure_ascii=False))
    return 2 if problems else 0


def problem_line(problem: Problem, language: str) -> str:
    """`FILE: key: reason` in `language`."""
    line = render(problem.reason, language)
    for where in (problem.key, problem.file):
        if where:
            line = say(language, "cli.config.problem_at", where=where, reason=line)
    return line


def refusal(exc: ConfigFileError, path: Path | None, language: str) -> str:
    """One line for a config a command cannot start with: its first problem, and how many more
    `tabletop config --check` lists."""
    return say(language, "cli.problem", problem=problems_line(exc.problems, path, language))


def problems_line(problems: list[Problem], path: Path | None, language: str) -> str:
    """The first of a config's problems, and how many more `tabletop config --check` lists."""
    return first_and_more(language, [problem_line(problem, language) for problem in problems],
                          "cli.config.more", file=path)
