"""`tabletop run`: build the companion from the config and start its loop.

Without the table's hardware (or with --sim) it runs on simulated parts: the
simulator's lines come from standard input, time is virtual, and on a terminal
each new frame is drawn as large as it fits, with the screen's text (device.sim.terminal),
and the log goes to `sim.log` in the state dir unless --verbose asks for it on stderr.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from device.assembly import assemble, hardware_present, start_from_flags, state_dir_for
from device.config import ConfigFileError, config_for_run, config_path
from device.sim.clock import VirtualClock
from device.sim.play import run_simulated
from device.sim.terminal import SimTerminal
from device.storage.lock import Locked, hold, holder
from device.texts import say
from engine.core.registry import problems as plugin_problems
from engine.core.text import DEFAULT_LANGUAGE

from . import logs
from .config import problems_line, refusal
from .parser import version

log = logging.getLogger("tabletop")
LOG_FILE = "sim.log"          # in the state dir: the simulator's log, off its terminal


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="cli.help.run")
    add_arguments(parser)
    parser.set_defaults(handler=run_command)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true", help="cli.help.sim")
    parser.add_argument("--config", type=Path, help="cli.help.config_file")
    parser.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    parser.add_argument("--frames", type=Path, help="cli.help.frames")
    parser.add_argument("--game", help="cli.help.game")
    parser.add_argument("--new", action="store_true", help="cli.help.new_game")
    parser.add_argument("--players", help="cli.help.players")
    parser.add_argument("--first", help="cli.help.first")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="cli.help.option")


def run_command(args) -> int:
    path = config_path(args.config)
    try:
        config, unread = config_for_run(path)    # unread: logged, and shown once
    except ConfigFileError as exc:
        if args.state_dir is not None and (running := holder(args.state_dir)) is not None:
            return _in_use(args.language, args.state_dir, running)
        print(refusal(exc, path, args.language), file=sys.stderr)
        return 2
    logs.use_level(config.log_level, args.verbose)
    for refused in plugin_problems():      # the other games play on; the log says why one is not there
        log.warning("%s", refused)
    state_dir = state_dir_for(args.state_dir, config)
    try:
        # first: a table already running here is what the person needs to hear, whatever else
        lock = hold(state_dir)          # held until the process ends
    except Locked as exc:
        return _in_use(args.language, state_dir, exc)
    except OSError as exc:              # no dir to lock: the device shows its storage fault
        lock = None
        log.error("state dir %s not locked: %s", state_dir, exc.strerror or exc)
    if args.game and not args.new and (state_dir / "current.jsonl").exists():
        # a fresh --game would set the running game aside: only when the person says so
        print(say(args.language, "cli.run.unfinished", dir=state_dir), file=sys.stderr)
        return _let_go(lock, 2)
    sim = args.sim or not hardware_present(config)
    if not args.sim and sim:
        print(say(args.language, "cli.run.no_hardware"))
    terminal = SimTerminal(sys.stdout, typing=tuple(say(args.language, "cli.run.typing")
                                                    .split("\n"))) \
        if sim and sys.stdout.isatty() else None
    if terminal is not None and not args.verbose:
        log_off_terminal(state_dir)
    unread_line = problems_line(unread, path, DEFAULT_LANGUAGE) if unread else None   # a log's
    app = assemble(config, state_dir, sim=sim, out=terminal or sys.stderr,   # LED, tones
                   config_problem=unread_line)
    if getattr(args, "language_asked", False):     # the command line's language is the screen's
        app.language = args.language
    if args.game:
        problem = start_from_flags(app, args)
        if problem:
            print(say(args.language, "cli.problem", problem=problem), file=sys.stderr)
            return _let_go(lock, 2)
    else:
        app.resume_game()
    log.info("%s", start_up_line(config, app, sim))
    return operate(app, config, args, terminal if sim else None, lock)


def _let_go(lock: int | None, code: int) -> int:
    """A run that stops before its table plays lets go of the state dir (a command run in this
    process after it, as the tests do, may take it)."""
    if lock is not None:
        os.close(lock)
    return code


def _in_use(language: str, state_dir: Path, exc: Locked) -> int:
    """The one line for a state dir another run holds: which process it is; exit 1."""
    print(say(language, "cli.problem", problem=say(
        language, "cli.run.locked", dir=state_dir, pid=exc.pid or "?",
        process=f": {exc.process}" if exc.process else "")), file=sys.stderr)
    return 1


def operate(app, config, args, terminal: SimTerminal | None, lock: int | None) -> int:
    """The table plays until its input ends (simulated: `terminal` or none) or it is stopped;
    then its plugins let go, and so does its lock on the state dir."""
    for plugin in app.plugins:
        plugin.start(app)
    simulated = isinstance(app.clock, VirtualClock)   # assemble() gives a simulated table virtual time
    web = page(app, config, simulated)
    try:
        if simulated:
            return run_simulated(app, app.clock, args, config, terminal, web)
        from device.parts import run_appliance
        return run_appliance(app, config, web)
    finally:
        if web is not None:
            web.close()
        for plugin in app.plugins:
            plugin.close()
        if lock is not None:
            os.close(lock)


def page(app, config, simulated: bool):
    """The table's page ([web]), started with the first frame: on every interface of the
    table, on 127.0.0.1 in the simulator unless the config says otherwise."""
    if not config.web.enabled:
        return None
    from device.web.serving import WebPage
    host = config.web.host or ("127.0.0.1" if simulated else "0.0.0.0")
    return WebPage(app, host, config.web.port, app.store.dir)


def log_off_terminal(state_dir: Path) -> None:
    """The simulator's terminal is the table's screen: a log line there would land in the
    middle of it, so the log goes to a file in the state dir (--verbose keeps it on stderr).
    A state dir that takes no file keeps the log where it was."""
    try:
        logs.to_file(state_dir / LOG_FILE)
    except OSError as exc:
        log.warning("log stays on the terminal: %s", exc.strerror or exc)


def start_up_line(config, app, sim: bool) -> str:
    """What this table runs, in one log line: what a fault report needs first."""
    game = app.session.spec.id if app.session is not None else "none yet"
    fleet = config.fleet
    broker = f"{fleet.host}:{fleet.port}{' (TLS)' if fleet.tls else ''}" if fleet.enabled else "off"
    display = "simulated" if sim else f"on {config.display.bus}"
    return (f"tabletop {version()} started: game {game}, reader {config.reader.kind}, "
            f"display {config.display.kind} ({display}), fleet {broker}")
