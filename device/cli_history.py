"""`tabletop history [--game G] [--csv | --stats] [--state-dir DIR]`: the finished games.

Exit status: 0 done (also with no game yet); 2 an unknown game or a history that cannot be read.
"""
from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import TextIO

import engine

from .history import Game, Stats, open_history
from .paths import default_state_dir

CSV_COLUMNS = ("game", "started", "ended", "duration_s", "players", "scores", "winners",
               "first", "options", "deck", "events", "id")


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("history", help="finished games, and statistics per game")
    parser.add_argument("--game", help="only this game (palourde, auberge, tribord, ...)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--csv", action="store_true", help="one CSV row per game, seats in order")
    shown.add_argument("--stats", action="store_true",
                       help="per game: games played, average duration, wins by seat")
    parser.add_argument("--state-dir", type=Path)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.game is not None:
        try:
            engine.get(args.game)
        except KeyError as exc:
            print(f"tabletop: {exc.args[0]}", file=sys.stderr)
            return 2
    state_dir = args.state_dir or default_state_dir()
    try:
        with closing(open_history(state_dir)) as history:
            if args.stats:
                print_stats(history.stats(args.game))
            elif args.csv:
                write_csv(history.games(args.game), sys.stdout)
            else:
                print_games(history.games(args.game))
    except (sqlite3.Error, OSError) as exc:
        print(f"tabletop: cannot read the history in {state_dir}: {exc}", file=sys.stderr)
        return 2
    return 0


def minutes(seconds: float | None) -> str:
    return "-" if seconds is None else f"{round(seconds / 60)} min"


def print_games(games: list[Game]) -> None:
    if not games:
        print("No finished game yet.")
    for game in games:
        seats = "  ".join(f"{p.name} {'-' if p.score is None else p.score}{'*' if p.winner else ''}"
                          for p in game.players)
        print(f"{game.started[:16].replace('T', ' ')}  {game.game:<9} {minutes(game.duration_s):>7}"
              f"  {seats}")


def write_csv(games: list[Game], out: TextIO) -> None:
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for g in games:
        writer.writerow([g.game, g.started, g.ended or "", "" if g.duration_s is None else g.duration_s,
                         ";".join(p.name for p in g.players),
                         ";".join("" if p.score is None else str(p.score) for p in g.players),
                         ";".join(g.winners), g.first or "", json.dumps(g.options, sort_keys=True),
                         g.deck or "", g.events, g.id])


def print_stats(stats: list[Stats]) -> None:
    if not stats:
        print("No finished game yet.")
    for s in stats:
        wins = " ".join(f"{seat}:{won}" for seat, won in s.wins_by_seat)
        print(f"{s.game}: {s.played} played, average {minutes(s.average_s)}; wins by seat {wins}")
