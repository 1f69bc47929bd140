"""`tabletop check-game ID [--seeds N] [--json]`: the checks this project runs on its own
games (device.conformance), run on one registered game, for the author of a plug-in game.

Each check prints `ok` or `FAIL` with the first problem it found. Exit status: 0 every check
passed; 1 a check failed; 2 no game of that id is registered (with why, if its plug-in was
refused).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from importlib import resources

import engine
import seeds
from device.conformance import Nonconformity, check_metadata, check_playout, check_texts
from device.conformance.playouts import player_counts
from device.texts import say
from engine import GameSpec
from engine.core.registry import problems
from engine.core.script import ScriptError
from engine.core.text import DEFAULT_LANGUAGE

from .replay import replay_text


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("check-game", help="cli.help.check_game")
    parser.add_argument("game", help="cli.help.check_game_id")
    parser.add_argument("--seeds", type=int, default=3, choices=range(1, 101), metavar="N",
                        help="cli.help.check_game_seeds")
    parser.add_argument("--json", action="store_true", help="cli.help.json")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def checks(spec: GameSpec, seeds_run: int) -> Iterator[tuple[str, Callable[[], None]]]:
    """(name, check) for every check of a game, in the order a reader fixes them."""
    yield "metadata", lambda: check_metadata(spec)
    yield "deck", lambda: check_deck(spec)
    for players in player_counts(spec):
        yield f"texts {players}p", partial(check_texts, spec, players, 0)
        for seed in range(seeds_run):
            yield f"playout {players}p seed {seed}", partial(check_playout, spec, players, seed)
    yield "demo", lambda: check_demo(spec)


def check_deck(spec: GameSpec) -> None:
    """The deck's manifest (deck.toml in the package that owns it) counts the game's cards."""
    try:
        seeds.check(seeds.parse(spec.deck, seeds.read_text(spec.deck)))
    except (seeds.ManifestError, OSError) as exc:
        raise Nonconformity(str(exc)) from None


def check_demo(spec: GameSpec) -> None:
    """The package's demo.script replays with no line refused and plays the game to its end."""
    try:
        text = resources.files(spec.home).joinpath("demo.script").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as exc:
        raise Nonconformity(f"no demo.script in {spec.home or 'its package'}: {exc}") from None
    try:
        replay = replay_text(text)
    except ScriptError as exc:
        raise Nonconformity(f"demo.script {exc}") from None
    if replay.session.spec.id != spec.id:
        raise Nonconformity(f"demo.script plays {replay.session.spec.id}, not {spec.id}")
    for record in replay.rejected:
        raise Nonconformity(f"demo.script line {record.line} refused: {record.code} {record.messages[0]!r}")
    if spec.result(replay.session.state) is None:
        raise Nonconformity("demo.script stops before the end of the game")


def run(args: argparse.Namespace) -> int:
    try:
        spec = engine.get(args.game)
    except KeyError as exc:
        print(say(args.language, "cli.problem", problem=exc.args[0]), file=sys.stderr)
        for refused in problems():
            print(say(args.language, "cli.problem", problem=refused), file=sys.stderr)
        return 2
    found = []
    for name, check in checks(spec, args.seeds):
        try:
            check()
            found.append({"check": name, "ok": True, "problem": None})
        except Nonconformity as exc:
            found.append({"check": name, "ok": False, "problem": str(exc)})
        if not args.json:
            print(line(found[-1], args.language), flush=True)
    failed = sum(not f["ok"] for f in found)
    if args.json:
        print(json.dumps({"game": spec.id, "ok": not failed, "checks": found}, ensure_ascii=False))
    else:
        print(say(args.language, "cli.check_game.failed" if failed else "cli.check_game.passed",
                  game=spec.id, n=failed, total=len(found)))
    return 1 if failed else 0


def line(found: dict, language: str) -> str:
    if found["ok"]:
        return say(language, "cli.check_game.ok", check=found["check"])
    return say(language, "cli.check_game.fail", check=found["check"], problem=found["problem"])
