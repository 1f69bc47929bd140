"""`tabletop cards check|install FILE`: a café's own card data, checked before any game reads it."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.paths import default_state_dir
from device.storage import card_data as cards
from engine.core.text import DEFAULT_LANGUAGE

from device.texts import say


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("cards", help="cli.help.cards")
    actions = parser.add_subparsers(dest="cards_action", required=True)
    for name in ("check", "install"):
        action = actions.add_parser(name, help=f"cli.help.cards_{name}")
        action.add_argument("file", type=Path)
        action.add_argument("--deck", default="flouk", help="cli.help.cards_deck")
        action.add_argument("--state-dir", type=Path)
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(say(args.language, "cli.cannot_read", path=args.file, why=exc))
        return 2
    if args.cards_action == "check":
        found = cards.problems(args.deck, text)
    else:
        state_dir = args.state_dir or default_state_dir()
        try:
            found = cards.install(state_dir, args.deck, text)
        except OSError as exc:         # a full or read-only state dir: nothing was changed
            print(say(args.language, "cli.cannot_write", path=exc.filename or state_dir,
                      why=exc.strerror or exc), file=sys.stderr)
            return 1
    for problem in found:
        print(f"{args.file}: {problem}")
    if not found:
        print(say(args.language, f"cli.cards.ok_{args.cards_action}", file=args.file))
    return 1 if found else 0
