"""The `tabletop` command."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from device.config import LANGUAGES
from engine.core.text import DEFAULT_LANGUAGE

from . import bench, cards, check_game, completion, config, dashboard, deck, doctor, fleet, history, logs, players
from .parser import cli_language, parser_class, version


def build_parser(language: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The parser, its --help in `language` (help texts are catalog keys: device.cli.parser)."""
    parser = parser_class(language)(prog="tabletop", description="cli.description",
                                    epilog="cli.exit_status")
    parser.add_argument("--language", choices=LANGUAGES, help="cli.help.language")
    parser.add_argument("--version", action="version", version=f"tabletop {version()}",
                        help="cli.help.version")
    parser.add_argument("-v", "--verbose", action="store_true", help="cli.help.verbose")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="cli.help.replay")
    replay.add_argument("script", type=Path, help="cli.help.script")
    replay.add_argument("--json", action="store_true", help="cli.help.json")
    from .run import add_arguments
    add_arguments(commands.add_parser("run", help="cli.help.run"))
    status = commands.add_parser("status", help="cli.help.status")
    status.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    status.add_argument("--json", action="store_true", help="cli.help.json")
    for command in (config, deck, cards, players, history, dashboard, fleet, bench, doctor,
                    check_game):
        command.add_commands(commands)
    completion.add_commands(commands, parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """`tabletop ...`; `--language` anywhere on the line sets the language of its output.

    Exit status: 0 done, 1 a failure (a check failed, nothing to show), 2 bad usage or input.
    """
    given = sys.argv[1:] if argv is None else list(argv)
    language, argv = cli_language(given, os.environ)
    args = build_parser(language).parse_args(argv)
    args.language = language
    args.language_asked = len(argv) < len(given)     # cli_language took a valid --language out
    logs.set_up(sys.stderr, os.environ, args.verbose)
    if args.command == "replay":
        from .replay import replay_command
        return replay_command(args.script, args.json, language)
    if args.command == "run":
        from .run import run_command
        return run_command(args)
    if args.command == "status":
        from device.paths import default_state_dir

        from .status import status_command
        return status_command(args.state_dir or default_state_dir(), args.json, language)
    if args.command == "deck":
        return deck.run(args, tag_source=real_reader_tags)
    return args.handler(args)


def real_reader_tags():
    """`deck learn` on the device itself: tags come from the configured reader."""
    from device.config import config_path, load_config
    from device.parts import reader_tags
    return reader_tags(load_config(config_path(None)))
