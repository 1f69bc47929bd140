"""`tabletop history [--game G] [--csv | --json] [--stats | --player NAME] [--state-dir DIR]`:
the finished games, or with --stats each game's figures, or with --player one player's games
played and won per game (a roster name is looked up as it is seated, its short form; P1, P2...
are refused: an unnamed seat is someone else in each game); --json prints any of them as one
JSON array.

Exit status: 0 done (also with no game yet); 2 an unknown game, an unnamed seat asked for, or a
history that cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import engine
from device.paths import default_state_dir
from device.storage.history import Game, PlayerStats, Stats, open_history
from device.texts import say
from engine.core.catalog import DEFAULT_LANGUAGE

TYPE_CHECKING = False               # as typing's, whose import the command would pay
if TYPE_CHECKING:
    from typing import TextIO

CSV_COLUMNS = ("game", "started", "ended", "duration_s", "players", "scores", "winners",
               "first", "options", "deck", "events", "id")


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("history", help="cli.help.history")
    parser.add_argument("--game", help="cli.help.history_game")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--csv", action="store_true", help="cli.help.history_csv")
    shown.add_argument("--stats", action="store_true", help="cli.help.history_stats")
    shown.add_argument("--player", metavar="NAME", help="cli.help.history_player")
    parser.add_argument("--json", action="store_true", help="cli.help.history_json")
    parser.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    if args.json and args.csv:
        print(say(args.language, "cli.history.json_or_csv"), file=sys.stderr)
        return 2
    if args.game is not None:
        try:
            engine.get(args.game)
        except KeyError as exc:
            print(say(args.language, "cli.problem", problem=exc.args[0]), file=sys.stderr)
            return 2
    if args.player is not None:
        from device.players.roster import unnamed  # the roster (and its font) for --player only
        if unnamed(args.player):
            print(say(args.language, "cli.history.unnamed", name=args.player), file=sys.stderr)
            return 2
    state_dir = args.state_dir or default_state_dir()
    try:
        with closing(open_history(state_dir)) as history:
            if args.player is not None:
                name = seated_name(state_dir, args.player)
                print_player(name, history.player(name, args.game), args.json, args.language)
            elif args.json:
                found = history.stats(args.game) if args.stats else history.games(args.game)
                print(json.dumps([as_json(item) for item in found], ensure_ascii=False))
            elif args.stats:
                print_stats(history.stats(args.game), args.language)
            elif args.csv:
                write_csv(history.games(args.game), sys.stdout)
            else:
                print_games(history.games(args.game), args.language)
    except (sqlite3.Error, OSError) as exc:
        print(say(args.language, "cli.history.unreadable", dir=state_dir, why=exc), file=sys.stderr)
        return 2
    return 0


def seated_name(state_dir: Path, name: str) -> str:
    """The name a game seated for `name`: a roster player's short form, else `name` itself (a
    seat named on the command line, or a roster that does not read)."""
    from device.players.roster import Roster, RosterError
    try:
        return Roster(state_dir).find(name).short
    except (RosterError, OSError):
        return name


def print_player(name: str, found: list[PlayerStats], as_json_array: bool, language: str) -> None:
    if as_json_array:
        print(json.dumps([item._asdict() for item in found], ensure_ascii=False))
        return
    if not found:
        print(say(language, "cli.history.player_none", name=name))
    for item in found:
        print(say(language, "cli.history.player", name=name, game=item.game, n=item.played,
                  won=item.won))


def as_json(item: Game | Stats) -> dict:
    """A game (each player's fields, its winners too) or a game's statistics, as JSON fields."""
    fields = item._asdict()
    if isinstance(item, Game):
        fields["players"] = [player._asdict() for player in item.players]
        fields["winners"] = list(item.winners)
    return fields


def minutes(seconds: float | None, language: str) -> str:
    return "-" if seconds is None else say(language, "cli.history.minutes", n=round(seconds / 60))


def print_games(games: list[Game], language: str) -> None:
    if not games:
        print(say(language, "cli.history.none"))
    for game in games:
        seats = "  ".join(f"{p.name} {'-' if p.score is None else p.score}{'*' if p.winner else ''}"
                          for p in game.players)
        print(f"{game.started[:16].replace('T', ' ')}  {game.game:<9} "
              f"{minutes(game.duration_s, language):>7}  {seats}")


def write_csv(games: list[Game], out: TextIO) -> None:
    import csv  # here: the other histories are written without it
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for g in games:
        writer.writerow([g.game, g.started, g.ended or "", "" if g.duration_s is None else g.duration_s,
                         ";".join(p.name for p in g.players),
                         ";".join("" if p.score is None else str(p.score) for p in g.players),
                         ";".join(g.winners), g.first or "", json.dumps(g.options, sort_keys=True),
                         g.deck or "", g.events, g.id])


def print_stats(stats: list[Stats], language: str) -> None:
    if not stats:
        print(say(language, "cli.history.none"))
    for s in stats:
        wins = " ".join(f"{seat}:{won}" for seat, won in s.wins_by_seat)
        print(say(language, "cli.history.stats", game=s.game, n=s.played,
                  average=minutes(s.average_s, language), wins=wins))
