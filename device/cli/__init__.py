"""The `tabletop` command."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from device.config import LANGUAGES
from device.fleet.dashboard import server as dashboard
from engine.core.script import ScriptError
from engine.core.text import DEFAULT_LANGUAGE

from . import (cards as cli_cards, config as cli_config, deck as cli_deck, fleet as fleet_cli,
               history as cli_history)
from device.texts import say

from .parser import cli_language, parser_class


def build_parser(language: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The parser, its --help in `language` (help texts are catalog keys: device.cli.parser)."""
    parser = parser_class(language)(prog="tabletop", description="cli.description")
    parser.add_argument("--language", choices=LANGUAGES, help="cli.help.language")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="cli.help.replay")
    replay.add_argument("script", type=Path, help="cli.help.script")
    replay.add_argument("--json", action="store_true", help="cli.help.json")
    from .run import add_arguments
    add_arguments(commands.add_parser("run", help="cli.help.run"))
    status = commands.add_parser("status", help="cli.help.status")
    status.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    status.add_argument("--json", action="store_true", help="cli.help.json")
    cli_config.add_commands(commands)
    cli_deck.add_commands(commands)
    cli_cards.add_commands(commands)
    cli_history.add_commands(commands)
    dashboard.add_commands(commands)
    fleet_cli.add_commands(commands)
    from .bench import add_commands as add_bench
    add_bench(commands)
    from .doctor import add_commands as add_doctor
    add_doctor(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """`tabletop ...`; `--language` anywhere on the line sets the language of its output."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    language, argv = cli_language(sys.argv[1:] if argv is None else list(argv), os.environ)
    args = build_parser(language).parse_args(argv)
    args.language = language
    if args.command == "replay":
        return replay_command(args.script, args.json, language)
    if args.command == "run":
        from .run import run_command
        return run_command(args)
    if args.command == "status":
        from device.paths import default_state_dir
        from device.storage.status import status_command
        return status_command(args.state_dir or default_state_dir(), args.json, language)
    if args.command == "deck":
        return cli_deck.run(args, tag_source=real_reader_tags)
    return args.handler(args)


def real_reader_tags():
    """`deck learn` on the device itself: tags come from the configured reader."""
    from device.config import load_config
    from device.parts import reader_tags

    from device.config import config_path
    return reader_tags(load_config(config_path(None)))
def replay_command(path: Path, as_json: bool, language: str = DEFAULT_LANGUAGE) -> int:
    from .replay import replay_text, report
    from .replay_text import print_replay
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        print(say(language, "cli.cannot_read", path=path, why=exc.strerror), file=sys.stderr)
        return 2
    try:
        result = replay_text(text, language=language)
    except ScriptError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(report(result), ensure_ascii=False))
    else:
        print_replay(result)
    return 0


