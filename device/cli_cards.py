"""`tabletop cards check|install FILE`: a café's own card data, checked before any game reads it."""
from __future__ import annotations

import argparse
from pathlib import Path

from . import cards
from .paths import default_state_dir


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("cards", help="check or install a card data file (Flouk)")
    actions = parser.add_subparsers(dest="cards_action", required=True)
    for name, text in (("check", "list every problem of a card file"),
                       ("install", "check a card file, then use it on this table")):
        action = actions.add_parser(name, help=text)
        action.add_argument("file", type=Path)
        action.add_argument("--deck", default="flouk", help="the deck the file describes")
        action.add_argument("--state-dir", type=Path)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tabletop: cannot read {args.file}: {exc}")
        return 2
    if args.cards_action == "check":
        found = cards.problems(args.deck, text)
    else:
        found = cards.install(args.state_dir or default_state_dir(), args.deck, text)
    for problem in found:
        print(f"{args.file}: {problem}")
    if not found:
        print(f"{args.file}: OK" + (", installed" if args.cards_action == "install" else ""))
    return 1 if found else 0
