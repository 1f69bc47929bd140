"""`tabletop deck ...`: learn, list, export, import and remove decks; manage staff cards.

Exit status: 0 done; 1 `learn` ran out of tags before the deck was complete (what was
learnt is saved); 2 a usage or data error, printed as one line.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .decks import DeckError, DeckRegistry
from .enroll import Enrollment, learn
from .fleet_cli import broker_options, publish
from .paths import default_state_dir

TagSource = Callable[[], Iterable[str]]


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `deck` command and its subcommands to the `tabletop` parser."""
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--state-dir", type=Path, metavar="DIR",
                       help="where decks are kept (default: $XDG_STATE_HOME/tabletop)")
    deck = subparsers.add_parser("deck", help="enrol, list and share decks of tagged cards")
    deck.set_defaults(handler=run)
    actions = deck.add_subparsers(dest="deck_command", required=True)
    learn_cmd = actions.add_parser("learn", parents=[where], help="tap every card of a deck in turn")
    learn_cmd.add_argument("game", help="a game (palourde, auberge, ...) or deck family")
    learn_cmd.add_argument("--deck", metavar="NAME", help="the deck's name (default: the family)")
    learn_cmd.add_argument("--stdin", action="store_true",
                           help="read tag UIDs from standard input (`tap uid:04A1B2C3` or a bare UID)")
    actions.add_parser("list", parents=[where], help="every deck and whether it is complete")
    actions.add_parser("export", parents=[where], help="print a deck to share").add_argument("name")
    import_cmd = actions.add_parser("import", parents=[where], help="add a deck exported elsewhere")
    import_cmd.add_argument("file", type=Path)
    import_cmd.add_argument("--name", help="store it under another name")
    import_cmd.add_argument("--replace", action="store_true", help="replace a deck of that name")
    actions.add_parser("remove", parents=[where], help="forget a deck").add_argument("name")
    actions.add_parser("publish", parents=[broker_options()],
                       help="share a deck with the café's other tables").add_argument("name")
    staff = actions.add_parser("staff", help="staff cards (they open the admin menu)")
    staff_actions = staff.add_subparsers(dest="staff_command", required=True)
    add = staff_actions.add_parser("add", parents=[where], help="register a tag as a staff card")
    add.add_argument("uid")
    add.add_argument("label")
    staff_actions.add_parser("remove", parents=[where], help="unregister a staff card").add_argument("uid")
    staff_actions.add_parser("list", parents=[where], help="every staff card")
    staff_actions.add_parser("publish", parents=[broker_options()],
                             help="share the staff cards with the café's other tables")


def run(args: argparse.Namespace, tag_source: TagSource | None = None) -> int:
    """Run a `deck` subcommand. `tag_source` gives `learn` its tags from a real reader when
    standard input is a terminal and --stdin is not given."""
    registry = DeckRegistry(args.state_dir or default_state_dir())
    try:
        if args.deck_command == "learn":
            return _learn(registry, args, tag_source)
        if args.deck_command == "staff":
            return _staff(registry, args)
        return _COMMANDS[args.deck_command](registry, args)
    except DeckError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2


def _learn(registry: DeckRegistry, args: argparse.Namespace, tag_source: TagSource | None) -> int:
    enrollment = Enrollment(registry, args.game, args.deck)
    if args.stdin or not sys.stdin.isatty():
        uids: Iterable[str] = stdin_tags(sys.stdin)
    elif tag_source is not None:
        uids = tag_source()
    else:
        print("tabletop: no tag reader here: pipe tag UIDs on standard input, or use --stdin",
              file=sys.stderr)
        return 2
    code = learn(enrollment, uids, lambda lines: print("\n".join(lines), flush=True))
    if code:
        print(f"Deck {enrollment.deck} is not complete yet: learn it again to go on.")
    return code


def stdin_tags(lines: Iterable[str]) -> Iterator[str]:
    """Tag UIDs from input lines: `tap uid:04A1B2C3`, `uid:04A1B2C3` or `04A1B2C3`.

    Blank lines and `#` comments are skipped; a line of another form is reported and skipped.
    """
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        words = text.split()
        if words[:1] == ["tap"]:
            words = words[1:]
        if not words:
            continue
        if len(words) == 1:
            yield words[0].removeprefix("uid:")
        else:
            print(f"line {number}: not a tag UID: {text}", file=sys.stderr)


def _list(registry: DeckRegistry, _: argparse.Namespace) -> int:
    decks = registry.decks()
    for info in decks:
        state = "complete" if info.complete else \
            f"missing {len(info.missing)}: {', '.join(info.missing[:6])}{'...' if len(info.missing) > 6 else ''}"
        print(f"{info.name:<16} {info.family:<9} {info.size:>3} tags  {state}")
    if not decks:
        print(f"No decks in {registry.decks_dir}: tabletop deck learn GAME")
    for problem in registry.problems:
        print(f"tabletop: {problem}", file=sys.stderr)
    return 2 if registry.problems else 0


def _export(registry: DeckRegistry, args: argparse.Namespace) -> int:
    sys.stdout.write(registry.export(args.name))
    return 0


def _import(registry: DeckRegistry, args: argparse.Namespace) -> int:
    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DeckError(f"{args.file}: not a text file (TOML is UTF-8)") from None
    try:
        info = registry.import_text(text, args.name, args.replace)
    except DeckError as exc:
        raise DeckError(f"{args.file}: {exc}") from None
    missing = "complete" if info.complete else f"{len(info.missing)} cards missing"
    print(f"Imported deck {info.name} ({info.family}, {info.size} tags, {missing})")
    return 0


def _remove(registry: DeckRegistry, args: argparse.Namespace) -> int:
    registry.remove(args.name)
    print(f"Removed deck {args.name}")
    return 0


def _staff(registry: DeckRegistry, args: argparse.Namespace) -> int:
    if args.staff_command == "add":
        registry.add_staff(args.uid, args.label)
        print(f"Staff card {args.label} added")
    elif args.staff_command == "remove":
        registry.remove_staff(args.uid)
        print(f"Staff card {args.uid} removed")
    elif args.staff_command == "publish":
        return publish(registry, args, deck=None)
    else:
        for uid, label in registry.staff().items():
            print(f"{uid:<14}  {label}")
    return 2 if registry.problems else 0


def _publish(registry: DeckRegistry, args: argparse.Namespace) -> int:
    return publish(registry, args, deck=args.name)


_COMMANDS = {"list": _list, "export": _export, "import": _import, "remove": _remove,
             "publish": _publish}
