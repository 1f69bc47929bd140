"""The `tabletop` command."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.core.script import ScriptError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tabletop", description="A table-side companion for card games.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="run an event script and print the outcome")
    replay.add_argument("script", type=Path)
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    run = commands.add_parser("run", help="start the companion")
    run.add_argument("--sim", action="store_true", help="simulated hardware in the terminal")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.script, args.json)
    from .demo import run_demo
    return run_demo()


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
