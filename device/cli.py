"""The `tabletop` command."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from engine.core.script import ScriptError

from . import cli_cards, cli_config, cli_deck, cli_history, dashboard, fleet_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="A table-side companion for card games.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="run an event script and print the outcome")
    replay.add_argument("script", type=Path)
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    from .run import add_arguments
    add_arguments(commands.add_parser("run", help="start the companion"))
    status = commands.add_parser("status", help="the running or last game")
    status.add_argument("--state-dir", type=Path)
    status.add_argument("--json", action="store_true")
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
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return replay_command(args.script, args.json)
    if args.command == "run":
        from .run import run_command
        return run_command(args)
    if args.command == "status":
        from .paths import default_state_dir
        from .status import status_command
        return status_command(args.state_dir or default_state_dir(), args.json)
    if args.command == "deck":
        return cli_deck.run(args, tag_source=real_reader_tags)
    return args.handler(args)


def real_reader_tags():
    """`deck learn` on the device itself: tags come from the configured reader."""
    from .appliance import reader_tags
    from .config import load_config
    return reader_tags(load_config(None))
def replay_command(path: Path, as_json: bool) -> int:
    from .replay import replay_text, report
    from .replay_text import print_replay
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"tabletop: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay_text(text)
    except ScriptError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(report(result), ensure_ascii=False))
    else:
        print_replay(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
