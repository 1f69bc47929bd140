"""`tabletop deck ...`: learn, list, export, import and remove decks; manage staff cards.

Exit status: 0 done; 1 `learn` ran out of tags before the deck was complete (what was
learnt is saved); 2 a usage or data error, printed as one line.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from device.decks.deck_file import DeckError, normalize_uid
from device.decks.learning import Enrollment, learn
from device.decks.registry import DeckRegistry
from device.fleet.signing import StaffRoll
from device.paths import default_state_dir, given_text
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .fleet import broker_options, publish
from .refusal import refuse, unreadable, unwritable

TagSource = Callable[[], Iterable[str]]


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `deck` command and its subcommands to the `tabletop` parser."""
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--state-dir", type=Path, metavar="DIR", help="cli.help.deck_dir")
    deck = subparsers.add_parser("deck", help="cli.help.deck")
    deck.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one
    actions = deck.add_subparsers(dest="deck_command", required=True)
    learn_cmd = actions.add_parser("learn", parents=[where], help="cli.help.deck_learn")
    learn_cmd.add_argument("game", help="cli.help.deck_game")
    learn_cmd.add_argument("--deck", metavar="NAME", help="cli.help.deck_name")
    learn_cmd.add_argument("--stdin", action="store_true", help="cli.help.deck_stdin")
    actions.add_parser("list", parents=[where], help="cli.help.deck_list").add_argument(
        "--json", action="store_true", help="cli.help.json")
    actions.add_parser("export", parents=[where], help="cli.help.deck_export").add_argument("name")
    import_cmd = actions.add_parser("import", parents=[where], help="cli.help.deck_import")
    import_cmd.add_argument("file", type=Path)
    import_cmd.add_argument("--name", help="cli.help.deck_import_name")
    import_cmd.add_argument("--replace", action="store_true", help="cli.help.deck_replace")
    actions.add_parser("remove", parents=[where], help="cli.help.deck_remove").add_argument("name")
    actions.add_parser("publish", parents=[broker_options()],
                       help="share a deck with the café's other tables").add_argument("name")
    staff = actions.add_parser("staff", help="cli.help.staff")
    staff_actions = staff.add_subparsers(dest="staff_command", required=True)
    add = staff_actions.add_parser("add", parents=[where], help="cli.help.staff_add")
    add.add_argument("uid")
    add.add_argument("label")
    remove = staff_actions.add_parser("remove", parents=[where], help="cli.help.staff_remove")
    remove.add_argument("uid")
    remove.add_argument("--config", type=Path, help="cli.help.fleet_config")
    staff_actions.add_parser("list", parents=[where], help="cli.help.staff_list").add_argument(
        "--json", action="store_true", help="cli.help.json")
    staff_actions.add_parser("publish", parents=[broker_options()],
                             help="share the staff cards with the café's other tables")


def run(args: argparse.Namespace, tag_source: TagSource | None = None) -> int:
    """Run a `deck` subcommand. `tag_source` gives `learn` its tags from a real reader when
    standard input is a terminal and --stdin is not given."""
    state_dir = args.state_dir or default_state_dir()
    try:
        registry = DeckRegistry(state_dir)
        if args.deck_command == "learn":
            return _learn(registry, args, tag_source)
        if args.deck_command == "staff":
            return _staff(registry, args)
        return _COMMANDS[args.deck_command](registry, args)
    except DeckError as exc:
        return refuse(args.language, exc)
    except OSError as exc:             # a full or read-only state dir: nothing was changed
        return unwritable(args.language, state_dir, exc)


def _learn(registry: DeckRegistry, args: argparse.Namespace, tag_source: TagSource | None) -> int:
    enrollment = Enrollment(registry, args.game, args.deck, args.language)
    if args.stdin or not sys.stdin.isatty():
        uids: Iterable[str] = stdin_tags(sys.stdin, args.language)
    elif tag_source is not None:
        uids = tag_source()
    else:
        print(say(args.language, "cli.deck.no_reader"), file=sys.stderr)
        return 2
    code = learn(enrollment, uids, lambda lines: print("\n".join(lines), flush=True))
    if code:
        print(say(args.language, "cli.deck.incomplete", deck=enrollment.deck))
    return code


def stdin_tags(lines: Iterable[str], language: str = DEFAULT_LANGUAGE) -> Iterator[str]:
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
            print(say(language, "cli.deck.not_a_uid", line=number, text=text), file=sys.stderr)


def _list(registry: DeckRegistry, args: argparse.Namespace) -> int:
    decks = registry.decks()
    if args.json:
        print(json.dumps({"decks": [{"name": info.name, "family": info.family, "size": info.size,
                                     "complete": not info.missing, "missing": list(info.missing)}
                                    for info in decks],
                          "problems": [str(problem) for problem in registry.problems]},
                         ensure_ascii=False))
        return 2 if registry.problems else 0
    for info in decks:
        print(say(args.language, "cli.deck.row", name=info.name, family=info.family,
                  size=info.size, state=_completeness(info.missing, args.language)))
    if not decks:
        print(say(args.language, "cli.deck.none", dir=registry.decks_dir))
    for problem in registry.problems:
        print(say(args.language, "cli.problem", problem=problem), file=sys.stderr)
    return 2 if registry.problems else 0


def _completeness(missing, language: str) -> str:
    """`complete`, or the first missing cards."""
    if not missing:
        return say(language, "cli.deck.complete")
    key = "cli.deck.missing_more" if len(missing) > 6 else "cli.deck.missing"
    return say(language, key, n=len(missing), cards=list(missing[:6]))


def _export(registry: DeckRegistry, args: argparse.Namespace) -> int:
    sys.stdout.write(registry.export(args.name))
    return 0


def _import(registry: DeckRegistry, args: argparse.Namespace) -> int:
    try:
        text = given_text(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        return unreadable(args.language, args.file, exc)
    try:
        info = registry.import_text(text, args.name, args.replace)
    except DeckError as exc:
        raise DeckError(f"{args.file}: {exc}") from None
    missing = say(args.language, "cli.deck.complete") if info.complete else \
        say(args.language, "cli.deck.cards_missing", n=len(info.missing))
    print(say(args.language, "cli.deck.imported", name=info.name, family=info.family,
              size=info.size, missing=missing))
    return 0


def _remove(registry: DeckRegistry, args: argparse.Namespace) -> int:
    registry.remove(args.name)
    print(say(args.language, "cli.deck.removed", name=args.name))
    return 0


def _staff(registry: DeckRegistry, args: argparse.Namespace) -> int:
    if args.staff_command == "add":
        registry.add_staff(args.uid, args.label)
        print(say(args.language, "cli.staff.added", label=args.label))
    elif args.staff_command == "remove":
        _remove_staff(registry, args)
    elif args.staff_command == "publish":
        return publish(registry, args, deck=None)
    else:
        return _staff_list(registry, args)
    return 2 if registry.problems else 0


def _remove_staff(registry: DeckRegistry, args: argparse.Namespace) -> None:
    """Any staff card this table knows: its own, or one imported from the fleet, tapped or
    still waiting for its first tap (found by its keyed hash, with the config's fleet.key)."""
    if normalize_uid(args.uid) in registry.staff():
        registry.remove_staff(args.uid)
    else:
        from device.config import ConfigFileError, config_path, load_config
        try:
            key = load_config(config_path(args.config)).fleet.key
        except ConfigFileError:
            key = None
        if not key or StaffRoll(registry.state_dir).forget(key, normalize_uid(args.uid)) is None:
            registry.remove_staff(args.uid)           # says it is no staff card here
    print(say(args.language, "cli.staff.removed", uid=args.uid))


def _staff_list(registry: DeckRegistry, args: argparse.Namespace) -> int:
    """Every card that opens the admin menu here: the staff list's, each with where it came
    from, then those imported from the fleet that open it at their first tap here. A file that
    does not read is said, and what does read is still listed."""
    roll = StaffRoll(registry.state_dir)
    enrolled = {uid.upper() for uid in roll.enrolled()}
    cards: list[dict[str, str | None]] = [
        {"uid": uid, "label": label, "from": "fleet" if uid.upper() in enrolled else "here"}
        for uid, label in registry.staff().items()]
    cards += [{"uid": None, "label": label, "from": "fleet, first tap"}
              for label in sorted(roll.pending().values())]
    problems = [str(problem) for problem in registry.problems]
    if args.json:
        print(json.dumps({"staff": cards, "problems": problems}, ensure_ascii=False))
        return 2 if problems else 0
    origin = {"here": "cli.staff.from_here", "fleet": "cli.staff.from_fleet",
              "fleet, first tap": "cli.staff.from_fleet_untapped"}
    for card in cards:
        print(say(args.language, "cli.staff.row", uid=card["uid"] or "-", label=card["label"],
                  origin=say(args.language, origin[str(card["from"])])))
    if not cards:
        print(say(args.language, "cli.staff.none"))
    for problem in problems:
        print(say(args.language, "cli.problem", problem=problem), file=sys.stderr)
    return 2 if problems else 0


def _publish(registry: DeckRegistry, args: argparse.Namespace) -> int:
    return publish(registry, args, deck=args.name)


_COMMANDS = {"list": _list, "export": _export, "import": _import, "remove": _remove,
             "publish": _publish}
