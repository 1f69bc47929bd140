"""`tabletop fleet ...` and `tabletop deck publish`: decks and staff cards shared on the broker.

    tabletop deck publish NAME        share a deck with the café's other tables
    tabletop deck staff publish       share this table's staff cards
    tabletop fleet shared             what the tables share
    tabletop fleet import-deck NAME   add a shared deck to this table
    tabletop fleet import-staff       add the shared staff cards this table lacks
    tabletop fleet retire TABLE       remove a table from the broker and Home Assistant
    tabletop fleet acl TABLE...       the broker's access list: each table writes its own topics

The broker is the one of the config's [fleet] table. Exit status: 0 done, 2 a usage,
broker or data error, printed as one line.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.clock import SystemClock
from device.config import ConfigFileError, config_path, load_config
from device.decks.deck_file import DeckError
from device.decks.registry import DeckRegistry
from device.fleet.acl import acl
from device.fleet.home_assistant import retirement
from device.fleet.link import FleetUnavailable, fetch_retained, send_retained
from device.fleet.schema import Refused
from device.fleet.shared import (
    SharedDeck,
    SharedRoster,
    SharedStaff,
    deck_message,
    import_deck,
    import_staff,
    read_shared,
    staff_message,
)
from device.fleet.topics import SHARED_FILTER
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .config import problems_line, refusal
from .refusal import failed_json


def broker_options() -> argparse.ArgumentParser:
    """--config and --state-dir, for every command that talks to the broker."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--config", type=Path, help="cli.help.fleet_config")
    options.add_argument("--state-dir", type=Path, metavar="DIR", help="cli.help.fleet_dir")
    return options


def add_commands(subparsers) -> None:
    fleet = subparsers.add_parser("fleet", help="cli.help.fleet")
    fleet.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one
    actions = fleet.add_subparsers(dest="fleet_command", required=True)
    actions.add_parser("shared", parents=[broker_options()], help="cli.help.fleet_shared").add_argument(
        "--json", action="store_true", help="cli.help.json")
    deck = actions.add_parser("import-deck", parents=[broker_options()],
                              help="cli.help.fleet_import_deck")
    deck.add_argument("name")
    deck.add_argument("--replace", action="store_true", help="cli.help.deck_replace")
    actions.add_parser("import-staff", parents=[broker_options()],
                       help="cli.help.fleet_import_staff")
    retire = actions.add_parser("retire", parents=[broker_options()],
                                help="cli.help.fleet_retire")
    retire.add_argument("table")
    access = actions.add_parser("acl", help="cli.help.fleet_acl")
    access.add_argument("tables", nargs="+", metavar="TABLE")
    access.add_argument("--admin", default="cafe-admin", help="cli.help.fleet_acl_admin")
    access.add_argument("--reader", action="append", help="cli.help.fleet_acl_reader")


def _config(args):
    """--config, else the installed table's, as `tabletop run` reads it."""
    return load_config(config_path(args.config))


def run(args: argparse.Namespace) -> int:
    from device.table import state_dir_for
    if args.fleet_command == "acl":
        return _acl(args)
    try:
        config = _config(args)
        if args.fleet_command == "retire":
            send_retained(config.fleet, retirement(args.table))
            print(say(args.language, "cli.fleet.retired", table=args.table))
            return 0
        registry = DeckRegistry(state_dir_for(args.state_dir, config))
        key = config.fleet.key
        found = [read_shared(topic, payload, key) for topic, payload in
                 fetch_retained(config.fleet, SHARED_FILTER).items()]
        shared = [item for item in found if item is not None]
        if args.fleet_command == "shared":
            return _list_json(shared) if args.json else _list(shared, args.language)
        if args.fleet_command == "import-deck":
            return _import_deck(registry, shared, args)
        return _import_staff(registry, shared, key, args.language)
    except ConfigFileError as exc:
        if getattr(args, "json", False):
            return failed_json(problems_line(exc.problems, config_path(args.config), args.language))
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (DeckError, FleetUnavailable) as exc:
        if getattr(args, "json", False):
            return failed_json(exc)
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2


def _list_json(shared: list) -> int:
    """What the tables share, as one JSON object: each deck, staff list and roster, and who shared it."""
    decks = [{"name": item.name, "family": item.family, "table": item.table, "cards": item.cards}
             for item in shared if isinstance(item, SharedDeck)]
    staff = [{"table": item.table, "cards": len(item.cards)}
             for item in shared if isinstance(item, SharedStaff)]
    rosters = [{"table": item.table, "players": len(item.players)}
               for item in shared if isinstance(item, SharedRoster)]
    print(json.dumps({"decks": decks, "staff": staff, "players": rosters}, ensure_ascii=False))
    return 0


def _acl(args: argparse.Namespace) -> int:
    """The access list on standard output, for the broker's acl_file; no broker is asked."""
    try:
        print(acl(args.tables, args.admin, args.reader or ["dashboard"]), end="")
    except Refused as exc:
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2
    return 0


def _list(shared: list, language: str) -> int:
    for item in shared:
        if isinstance(item, SharedDeck):
            print(say(language, "cli.fleet.deck", name=item.name, family=item.family,
                      table=item.table))
        elif isinstance(item, SharedRoster):
            print(say(language, "cli.fleet.players", n=len(item.players), table=item.table))
        else:
            print(say(language, "cli.fleet.staff", n=len(item.cards), table=item.table))
    if not shared:
        print(say(language, "cli.fleet.nothing"))
    return 0


def _import_deck(registry: DeckRegistry, shared: list, args: argparse.Namespace) -> int:
    name, language = args.name, args.language
    decks = {item.name: item for item in shared if isinstance(item, SharedDeck)}
    if name not in decks:
        raise DeckError(f"no shared deck {name!r} (shared: {', '.join(sorted(decks)) or 'none'})")
    info = import_deck(registry, decks[name], args.replace)
    missing = say(language, "cli.deck.complete") if info.complete else \
        say(language, "cli.deck.cards_missing", n=len(info.missing))
    print(say(language, "cli.fleet.imported", name=info.name, table=decks[name].table,
              family=info.family, size=info.size, missing=missing))
    return 0


def _import_staff(registry: DeckRegistry, shared: list, key: str, language: str) -> int:
    """The new cards go on the roll: each is a staff card here from its first tap."""
    lists = [item for item in shared if isinstance(item, SharedStaff)]
    if not lists:
        raise DeckError("no shared staff cards: tabletop deck staff publish")
    added = import_staff(registry, lists[0], key)
    print(say(language, "cli.fleet.staff_added", n=added, table=lists[0].table))
    return 0


def publish(registry: DeckRegistry, args: argparse.Namespace, deck: str | None) -> int:
    """`tabletop deck publish NAME` (deck given) and `tabletop deck staff publish` (deck None)."""
    from device.fleet.plugin import table_name
    try:
        settings = _config(args).fleet
        table, now = table_name(settings), SystemClock().wall()
        message = deck_message(registry, deck, table, now, settings.key) if deck else \
            staff_message(registry, table, now, settings.key)
        send_retained(settings, [message])
    except ConfigFileError as exc:
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (FleetUnavailable, ValueError) as exc:
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2
    if deck:
        print(say(args.language, "cli.fleet.shared_deck", deck=deck, table=table, topic=message[0]))
    else:
        print(say(args.language, "cli.fleet.shared_staff", table=table, topic=message[0]))
    return 0
