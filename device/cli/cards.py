"""`tabletop cards check|install FILE`: a café's own card data, checked before any game reads it.
`tabletop cards show`: each Chief's and Action's printed details, known or still unknown.
`tabletop cards export` / `import FILE`: what one table learned at play, for the others.

Exit status: 0 done; 1 the state dir cannot be written; 2 the file is wrong (check lists
every problem, install and import the first, on stderr) and nothing was written."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import engine
import seeds
from device.paths import default_state_dir, given_text
from device.storage import card_data as cards
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .refusal import first_and_more, refuse, unreadable, unwritable


def _printed_deck() -> str | None:
    """The default deck: the first whose cards carry printed details a card file gives."""
    return next((spec.deck for spec in engine.all_specs() if spec.card_problems), None)


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("cards", help="cli.help.cards")
    actions = parser.add_subparsers(dest="cards_action", required=True)
    for name in ("check", "install", "show", "export", "import"):
        action = actions.add_parser(name, help=f"cli.help.cards_{name}")
        if name not in ("show", "export"):
            action.add_argument("file", type=Path)
        action.add_argument("--deck", default=_printed_deck(), help="cli.help.cards_deck")
        action.add_argument("--state-dir", type=Path)
        if name == "show":
            action.add_argument("--json", action="store_true", help="cli.help.json")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def show(args: argparse.Namespace) -> int:
    """One line per card with printed details: each detail, `unknown`, or learned at a table
    (with --json, one object: each card's details, each with its value and where it is from)."""
    state_dir = args.state_dir or default_state_dir()
    spec = next((s for s in engine.all_specs() if s.deck == args.deck and s.data_check), None)
    data = cards.game_data(spec, state_dir) if spec else None
    if data is None:
        if args.json:
            print(json.dumps({"deck": args.deck, "error": say(args.language, "cli.cards.no_details",
                                                              deck=args.deck)}, ensure_ascii=False))
        else:
            print(say(args.language, "cli.cards.no_details", deck=args.deck))
        return 2
    learned, problems = cards.read_learned(state_dir, args.deck)
    shown = [(c, t) for c, t in data["cards"].items() if t.get("type") in ("chief", "action")]
    rows = [(card, table["type"], {name: _source(table, name, learned.get(card, {}))
                                   for name in _printed(table)}) for card, table in shown]
    known = sum(all(source != "unknown" for _, source in details.values())
                for _, _, details in rows)
    if args.json:
        print(json.dumps({"deck": args.deck, "known": known, "total": len(rows),
                          "problems": [str(p) for p in problems],
                          "cards": [{"card": card, "type": kind,
                                     "details": {name: {"value": value, "from": source}
                                                 for name, (value, source) in details.items()}}
                                    for card, kind, details in rows]}, ensure_ascii=False))
        return 0
    for problem in problems:
        print(say(args.language, "cli.problem", problem=problem))
    for card, _, details in rows:
        print(f"{card:<15} " + "  ".join(_detail(args.language, name, *said)
                                           for name, said in details.items()))
    print(say(args.language, "cli.cards.summary", known=known, n=len(rows)))
    return 0


def _printed(table: dict) -> tuple[str, ...]:
    """The printed details a card of this type carries."""
    return ("people", "white") if table["type"] == "action" else ("white",)


def _source(table: dict, name: str, learned: dict) -> tuple[object, str]:
    """A detail's value (None while unknown) and where it is from: known, learned or unknown."""
    value = table.get(name, "unknown")
    if value == "unknown":
        return None, "unknown"
    return value, "learned" if name in learned else "known"


def _detail(language: str, name: str, value: object, source: str) -> str:
    if source == "unknown":
        return say(language, f"cli.cards.{name}_unknown")
    return say(language, f"cli.cards.{name}_{source}", value=value)


def export(args: argparse.Namespace) -> int:
    """The learned details as one JSON object on stdout (card -> detail -> value)."""
    learned, problems = cards.read_learned(args.state_dir or default_state_dir(), args.deck)
    for problem in problems:
        print(say(args.language, "cli.problem", problem=problem), file=sys.stderr)
    print(json.dumps(learned, indent=1, sort_keys=True, ensure_ascii=False))
    return 0


def import_learned(args: argparse.Namespace, text: str) -> int:
    """Another table's learned details: what this table does not know yet is kept. A file with
    a bad entry is refused whole: its other entries may be as wrong."""
    try:
        details = json.loads(text)
    except (ValueError, RecursionError) as exc:         # RecursionError: nested thousands deep
        return refuse(args.language, f"{args.file}: {say(args.language, 'cli.cards.not_json', why=exc)}")
    _, bad = seeds.learned_problems(args.deck, details)
    if bad:
        return _refuse_all(args, bad, "cli.cards.more_learned")
    state_dir = args.state_dir or default_state_dir()
    try:
        found = cards.merge_details(state_dir, args.deck, details)
    except OSError as exc:
        return unwritable(args.language, state_dir, exc)
    for problem in found:           # a detail this table knows otherwise: its own is kept
        print(f"{args.file}: {problem}", file=sys.stderr)
    print(say(args.language, "cli.cards.imported", file=args.file))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.cards_action in ("show", "export"):
        return show(args) if args.cards_action == "show" else export(args)
    try:
        text = given_text(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        return unreadable(args.language, args.file, exc)
    if args.cards_action == "import":
        return import_learned(args, text)
    state_dir = args.state_dir or default_state_dir()
    try:
        found = cards.problems(args.deck, text) if args.cards_action == "check" else \
            cards.install(state_dir, args.deck, text)
    except OSError as exc:         # a full or read-only state dir: nothing was changed
        return unwritable(args.language, state_dir, exc)
    if not found:
        print(say(args.language, f"cli.cards.ok_{args.cards_action}", file=args.file))
        return 0
    if args.cards_action == "check":       # a check lists every problem
        for problem in found:
            refuse(args.language, f"{args.file}: {problem}")
        return 2
    return _refuse_all(args, found, "cli.cards.more")


def _refuse_all(args: argparse.Namespace, found: list[str], more: str) -> int:
    """One line: the first problem, and how many more there are (`more`, a catalog key)."""
    lines = [f"{args.file}: {problem}" for problem in found]
    print(say(args.language, "cli.problem",
              problem=first_and_more(args.language, lines, more, file=args.file)),
          file=sys.stderr)
    return 2
