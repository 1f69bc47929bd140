"""`tabletop fleet ...` and `tabletop deck publish`: decks and staff cards shared on the broker.

    tabletop deck publish NAME        share a deck with the café's tables (the café's machine)
    tabletop deck staff publish       share the café's staff list (the café's machine)
    tabletop fleet keys [--admin]     make and show this table's key (--admin: the café's)
    tabletop fleet enrol TABLE KEY    let a table speak for itself (the café's machine)
    tabletop fleet strike TABLE       strike a table off: its key counts no more
    tabletop fleet shared             what the café shares
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
import logging
import sys
from pathlib import Path

from device.clock import SystemClock
from device.config import ConfigFileError, config_path, load_config
from device.decks.deck_file import DeckError
from device.decks.registry import DeckRegistry
from device.fleet import keys
from device.fleet.acl import acl
from device.fleet.enrolled import Enrolled
from device.fleet.envelope import Signer, Trust
from device.fleet.freshness import Freshness
from device.fleet.home_assistant import retirement
from device.fleet.link import FleetUnavailable
from device.fleet.retained import fetch_retained, send_retained
from device.fleet.schema import Refused
from device.fleet.shared import (
    SharedDeck,
    SharedRoster,
    SharedStaff,
    SharedTables,
    deck_message,
    import_deck,
    import_staff,
    read_shared,
    staff_message,
    tables_message,
    take_staff,
)
from device.fleet.topics import SHARED_FILTER
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .config import problems_line, refusal
from .refusal import failed_json

log = logging.getLogger(__name__)


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
    made = actions.add_parser("keys", parents=[broker_options()], help="cli.help.fleet_keys")
    made.add_argument("--admin", action="store_true", help="cli.help.fleet_keys_admin")
    enrol = actions.add_parser("enrol", parents=[broker_options()], help="cli.help.fleet_enrol")
    enrol.add_argument("table")
    enrol.add_argument("public_key")
    actions.add_parser("strike", parents=[broker_options()],
                       help="cli.help.fleet_strike").add_argument("table")
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
    from device.assembly import state_dir_for
    if args.fleet_command == "acl":
        return _acl(args)
    try:
        config = _config(args)
        if args.fleet_command == "retire":
            send_retained(config.fleet, retirement(args.table))
            print(say(args.language, "cli.fleet.retired", table=args.table))
            return 0
        state_dir = state_dir_for(args.state_dir, config)
        if args.fleet_command == "keys":
            return _keys(state_dir, config.fleet, args)
        if args.fleet_command in ("enrol", "strike"):
            return _enrol(state_dir, config.fleet, args)
        registry = DeckRegistry(state_dir)
        key = config.fleet.key
        shared = checked(fetch_retained(config.fleet, SHARED_FILTER),
                         Trust.of(config.fleet.admin_key, Freshness.at(state_dir)))
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
    except (DeckError, FleetUnavailable, ValueError, OSError) as exc:
        if getattr(args, "json", False):
            return failed_json(exc)
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2


def checked(retained: dict[str, bytes], trust: Trust) -> list:
    """What the café shares, of the retained messages: each one refused said in one line
    (rate-limited), never a crash, whatever the broker holds."""
    found = []
    for topic, payload in retained.items():
        try:
            found.append(read_shared(topic, payload, trust)[0])
        except (Refused, RecursionError) as exc:
            log.warning("fleet: refused the shared data on %.80s: %s", topic,
                        str(exc) or "nested too deep")
    return [item for item in found if not isinstance(item, SharedTables)]


def _keys(state_dir: Path, settings, args: argparse.Namespace) -> int:
    """Make the key asked for if there is none, and show the public halves this machine has."""
    from device.fleet.plugin import table_name
    keys.make(state_dir, keys.ADMIN if args.admin else keys.TABLE)
    table = keys.load(state_dir, keys.TABLE)
    if table is not None:
        print(say(args.language, "cli.fleet.key_table", table=table_name(settings),
                  public=keys.public_text(table)))
    admin = keys.load(state_dir, keys.ADMIN)
    if admin is not None:
        print(say(args.language, "cli.fleet.key_admin", public=keys.public_text(admin)))
    return 0


def _enrol(state_dir: Path, settings, args: argparse.Namespace) -> int:
    """Enrol or strike off a table, and publish the café's new list of tables."""
    from device.fleet.plugin import table_name
    signer = Signer.admin(state_dir)
    enrolled = Enrolled(state_dir)
    tables = enrolled.enrol(args.table, args.public_key) if args.fleet_command == "enrol" \
        else enrolled.strike(args.table)
    send_retained(settings, [tables_message(tables, table_name(settings),
                                            SystemClock().wall(), signer)])
    done = "cli.fleet.enrolled" if args.fleet_command == "enrol" else "cli.fleet.struck"
    print(say(args.language, done, table=args.table, n=len(tables)))
    return 0


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


def _import_staff(registry: DeckRegistry, shared: list, key: str | None, language: str) -> int:
    """The new cards go on the roll: each is a staff card here from its first tap."""
    lists = [item for item in shared if isinstance(item, SharedStaff)]
    if not lists:
        raise DeckError("no shared staff cards: tabletop deck staff publish")
    if not key:
        raise DeckError("staff lists need the café's tag key: set fleet.key in the config")
    taken = take_staff(registry, lists[0], key)          # the café's word: what it took back
    if taken:
        print(say(language, "cli.fleet.staff_taken", names=", ".join(sorted(taken))))
    added = import_staff(registry, lists[0], key)
    print(say(language, "cli.fleet.staff_added", n=added, table=lists[0].table))
    return 0


def publish(registry: DeckRegistry, args: argparse.Namespace, deck: str | None) -> int:
    """`tabletop deck publish NAME` (deck given) and `tabletop deck staff publish` (deck None)."""
    from device.assembly import state_dir_for
    from device.fleet.plugin import table_name
    try:
        config = _config(args)
        settings = config.fleet
        table, now = table_name(settings), SystemClock().wall()
        signer = Signer.admin(state_dir_for(args.state_dir, config))   # where `fleet keys` made it
        message = deck_message(registry, deck, table, now, signer) if deck else \
            staff_message(registry, table, now, settings.key, signer)
        send_retained(settings, [message])
    except ConfigFileError as exc:
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (FleetUnavailable, ValueError, OSError) as exc:
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2
    if deck:
        print(say(args.language, "cli.fleet.shared_deck", deck=deck, table=table, topic=message[0]))
    else:
        print(say(args.language, "cli.fleet.shared_staff", table=table, topic=message[0]))
    return 0
