"""`tabletop check-game ID [--playouts N] [--json]`: the checks this project runs on its own
games (device.conformance), run on one registered game, for the author of a plug-in game.

Each check prints `ok` or `FAIL` with the first problem it found. An exception the game
raises is a FAIL too, naming the file and line of the game where it was raised (a broken
invariant: the game's `invariants`), never a traceback. Exit status: 0 every check passed;
1 a check failed; 2 no game of that id is registered (with why, if its plug-in was refused).
"""
from __future__ import annotations

import argparse
import inspect
import json
import sys
import traceback
from collections.abc import Callable, Iterator
from functools import partial
from importlib import resources
from pathlib import Path

import engine
import seeds
from device.conformance import Nonconformity, check_metadata, check_playout, check_texts
from device.conformance.checks import shown_texts
from device.conformance.playouts import POLICIES, player_counts
from device.texts import say
from device.ui.game_view import menu_name
from engine import GameSpec
from engine.core.registry import problems
from engine.core.script import ScriptError
from engine.core.step import EngineBug
from engine.core.text import DEFAULT_LANGUAGE, LANGUAGES, render

from .fit import misfit
from .replay import replay_text


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("check-game", help="cli.help.check_game")
    parser.add_argument("game", help="cli.help.check_game_id")
    parser.add_argument("--playouts", type=int, default=3, choices=range(1, 101), metavar="N",
                        help="cli.help.check_game_playouts")
    # its first name, still taken from scripts written with it (seeds/ holds the decks' manifests)
    parser.add_argument("--seeds", type=int, choices=range(1, 101), dest="playouts",
                        default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="cli.help.json")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def checks(spec: GameSpec, playouts: int) -> Iterator[tuple[str, Callable[[], None]]]:
    """(name, check) for every check of a game, in the order a reader fixes them. The player
    counts are the game's own code (its player_limits): they are read in the metadata check,
    which runs before the next check is asked for, so a game that raises there fails it."""
    counts: list[int] = []

    def metadata() -> None:
        check_metadata(spec)
        counts.extend(player_counts(spec))

    yield "metadata", metadata
    yield "deck", lambda: check_deck(spec)
    for players in counts:
        yield f"texts {players}p", partial(check_texts, spec, players, 0)
        yield f"screen {players}p", partial(check_screen, spec, players, 0)
        for seed in range(playouts):
            yield f"playout {players}p seed {seed}", partial(check_playout, spec, players, seed)
        for policy in POLICIES[1:]:          # toward the edges: a menu's ends, one answer again
            yield f"playout {players}p {policy}", partial(check_playout, spec, players, 0, policy)
    yield "demo", lambda: check_demo(spec)


def check_screen(spec: GameSpec, players: int, seed: int) -> None:
    """Every text a seeded game shows, in each language, fits the device's screen (fit.py)."""
    for language in LANGUAGES:
        header = ""
        for where, kind, message in shown_texts(spec, players, seed):
            message = menu_name(spec) if kind == "menu" else message     # its short form
            try:
                text = render(message, language)
            except (KeyError, IndexError, ValueError):
                continue                      # a text not written: the texts check says so
            header = text if kind == "name" else header
            problem = misfit(kind, text, header)
            if problem:
                raise Nonconformity(f"{where} ({language}): {problem}")


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
    for name, check in checks(spec, args.playouts):
        found.append({"check": name, **outcome(spec, check)})
        if not args.json:
            print(line(found[-1], args.language), flush=True)
    failed = sum(not f["ok"] for f in found)
    if args.json:
        print(json.dumps({"game": spec.id, "ok": not failed, "checks": found}, ensure_ascii=False))
    else:
        print(say(args.language, "cli.check_game.failed" if failed else "cli.check_game.passed",
                  game=spec.id, n=failed, total=len(found)))
    return 1 if failed else 0


def outcome(spec: GameSpec, check: Callable[[], None]) -> dict:
    """ok, problem and where (the game's file:line of an exception it raised) of one check."""
    try:
        check()
    except Nonconformity as exc:
        return {"ok": False, "problem": str(exc), "where": None}
    except Exception as exc:          # the game's own bug: said, never a traceback
        where = raised_at(spec, exc)
        return {"ok": False, "problem": f"{where}: {type(exc).__name__}: {exc}", "where": where}
    return {"ok": True, "problem": None, "where": None}


def raised_at(spec: GameSpec, exc: BaseException) -> str:
    """`package/module.py:line` of the game's last frame in the traceback; for a broken
    invariant, which the engine raises, the game's `invariants` function."""
    root = game_folder(spec)
    if isinstance(exc, EngineBug):
        try:
            code = inspect.unwrap(spec.invariants)
            return f"{shown_path(Path(inspect.getfile(code)), root)}:{inspect.getsourcelines(code)[1]}"
        except (OSError, TypeError):        # no source to point at: where the engine found it
            pass
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if root is not None and Path(f.filename).is_relative_to(root)]
    frame = (mine or frames)[-1]
    return f"{shown_path(Path(frame.filename), root)}:{frame.lineno}"


def game_folder(spec: GameSpec) -> Path | None:
    """The folder of the game's package (its `home`, else the module of its state)."""
    module = sys.modules.get(spec.home or spec.state_type.__module__)
    file = getattr(module, "__file__", None)
    if file is None:
        return None
    return Path(file).resolve().parent


def shown_path(path: Path, root: Path | None) -> str:
    """A path from the game's package folder's parent (`tabletop_nothanks/nothanks.py`)."""
    path = path.resolve()
    if root is not None and path.is_relative_to(root.parent):
        return str(path.relative_to(root.parent))
    return str(path)


def line(found: dict, language: str) -> str:
    if found["ok"]:
        return say(language, "cli.check_game.ok", check=found["check"])
    return say(language, "cli.check_game.fail", check=found["check"], problem=found["problem"])
