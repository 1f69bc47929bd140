"""`tabletop players add|list|remove|card|publish`: the café's roster, whose names a setup
offers (device/players/roster.py); publish shares it with the café's other tables, which
merge it (device/fleet/shared.py).

Exit status: 0 done; 1 the state dir cannot be written (nothing changed); 2 a name, tag,
roster file or broker refused, printed as one line.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.clock import SystemClock
from device.config import ConfigFileError, config_path, load_config
from device.decks.deck_file import normalize_uid
from device.decks.registry import DeckRegistry, TagTaken
from device.fleet.envelope import Signer
from device.fleet.link import FleetUnavailable
from device.fleet.retained import send_retained
from device.fleet.shared import roster_message
from device.paths import default_state_dir
from device.players.roster import Player, Roster, RosterError, new_player
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .config import refusal
from .fleet import broker_options
from .refusal import refuse, unwritable


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--state-dir", type=Path, metavar="DIR", help="cli.help.state_dir")
    players = subparsers.add_parser("players", help="cli.help.players_roster")
    players.set_defaults(handler=run, language=DEFAULT_LANGUAGE)     # main() sets the chosen one
    actions = players.add_subparsers(dest="players_command", required=True)
    add = actions.add_parser("add", parents=[where], help="cli.help.players_add")
    add.add_argument("name")
    add.add_argument("--short", help="cli.help.players_short")
    actions.add_parser("list", parents=[where], help="cli.help.players_list").add_argument(
        "--json", action="store_true", help="cli.help.json")
    actions.add_parser("remove", parents=[where], help="cli.help.players_remove").add_argument("name")
    card = actions.add_parser("card", parents=[where], help="cli.help.players_card")
    card.add_argument("uid")
    card.add_argument("name")
    actions.add_parser("publish", parents=[broker_options()], help="cli.help.players_publish")


def run(args: argparse.Namespace) -> int:
    if args.players_command == "publish":
        return _publish(args)
    state_dir = args.state_dir or default_state_dir()
    roster = Roster(state_dir)
    try:
        if args.players_command == "add":
            player = roster.add(new_player(args.name, args.short))
            print(say(args.language, "cli.players.added", name=_shown(player)))
        elif args.players_command == "remove":
            print(say(args.language, "cli.players.removed", name=roster.remove(args.name).name))
        elif args.players_command == "card":
            _card(roster, DeckRegistry(state_dir), args)
        else:
            _list(roster.players(), args)
    except RosterError as exc:
        return refuse(args.language, exc)
    except OSError as exc:             # a full or read-only state dir: nothing was changed
        return unwritable(args.language, state_dir, exc)
    return 0


def _card(roster: Roster, registry: DeckRegistry, args: argparse.Namespace) -> None:
    """A tag of a deck or a staff card is no player card: a tap must mean one thing."""
    owner = registry.lookup(args.uid)
    if owner is not None:
        raise RosterError(str(TagTaken(normalize_uid(args.uid), owner)))
    player = roster.give_card(args.uid, args.name)
    print(say(args.language, "cli.players.card", uid=normalize_uid(args.uid), name=player.short))


def _shown(player: Player) -> str:
    return player.name if player.short == player.name else f"{player.name} ({player.short})"


def _list(players: list[Player], args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps([{"name": p.name, "short": p.short, "cards": list(p.cards)}
                          for p in players], ensure_ascii=False))
        return
    for player in players:
        print(say(args.language, "cli.players.row", name=_shown(player), cards=len(player.cards)))
    if not players:
        print(say(args.language, "cli.players.none"))


def _publish(args: argparse.Namespace) -> int:
    """The roster of the table's state dir, as a retained message on the config's broker."""
    from device.assembly import state_dir_for
    from device.fleet.plugin import table_name
    try:
        config = load_config(config_path(args.config))
        table = table_name(config.fleet)
        state_dir = state_dir_for(args.state_dir, config)
        if not Roster(state_dir).players():
            raise RosterError("no players here: tabletop players add NAME")
        message = roster_message(Roster(state_dir), table, SystemClock().wall(),
                                 Signer.admin(state_dir))
        send_retained(config.fleet, [message])
    except ConfigFileError as exc:
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (RosterError, FleetUnavailable, ValueError, OSError) as exc:
        return refuse(args.language, exc)
    print(say(args.language, "cli.players.shared", table=table, topic=message[0]))
    return 0
