"""`tabletop run`: build the companion from the config and start its loop.

Without the table's hardware (or with --sim) it runs on simulated parts: the
simulator's lines come from standard input, time is virtual, and on a terminal
each new frame is drawn with half blocks.
"""
from __future__ import annotations

import argparse
import datetime
import logging
import os
import sys
import time
from pathlib import Path

import engine
from device.app import Companion
from device.config import ConfigFileError, load_config
from device.feedback import open_feedback
from device.fleet.plugin import open_fleet
from device.kiosk.plugin import attach
from device.kiosk.system_actions import RecordedSystem, Systemctl
from device.loop import Frames, VirtualClock, run_sim
from device.paths import default_state_dir
from device.sim.lines import SimReaderField
from device.storage.card_data import game_data
from device.storage.history import keep_history
from device.storage.journal import last_input
from device.storage.status import latest_journal
from device.storage.store import GameStore
from device.texts.language import table_language
from engine import ConfigError, Session, make_config

from .parser import say

log = logging.getLogger(__name__)

SYSTEM_CONFIG = Path("/etc/tabletop/config.toml")      # where systemd/install.sh puts it


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true", help="cli.help.sim")
    parser.add_argument("--config", type=Path, help="cli.help.config_file")
    parser.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    parser.add_argument("--frames", type=Path, help="cli.help.frames")
    parser.add_argument("--game", help="cli.help.game")
    parser.add_argument("--players", help="cli.help.players")
    parser.add_argument("--first", help="cli.help.first")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="cli.help.option")


def wall_clock() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def run_command(args) -> int:
    try:
        config = load_config(config_path(args.config))
    except ConfigFileError as exc:
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2
    state_dir = state_dir_for(args.state_dir, config)
    sim = args.sim or not hardware_present(config)
    if not args.sim and sim:
        print(say(args.language, "cli.run.no_hardware"))
    registry = open_registry(state_dir, sim)
    clock = VirtualClock() if sim else time.monotonic
    store = GameStore(state_dir, config.history.keep_journals)
    keep_history(store)
    app = Companion(registry=registry, store=store, clock=clock,
                    wall_clock=wall_clock,
                    language=table_language(state_dir, config.language, os.environ))
    attach(app, config.kiosk, RecordedSystem() if sim else Systemctl())
    if args.game:
        problem = start_from_flags(app, args)
        if problem:
            print(say(args.language, "cli.problem", problem=problem), file=sys.stderr)
            return 2
    else:
        app.resume_game()
    feedback = open_feedback(config, sim=sim, out=sys.stdout if sys.stdout.isatty() else sys.stderr)
    if feedback is not None:
        app.plugins.append(feedback)
    fleet = open_fleet(config, state_dir, wall_clock)
    if fleet is not None:          # first: while it offers a shared deck, a staff tap answers it
        app.plugins.insert(0, fleet)
    try:
        if sim:
            return run_simulated(app, clock, args, config)
        from device.parts import run_appliance
        return run_appliance(app, config)
    finally:
        if feedback is not None:
            feedback.close()
        if fleet is not None:
            fleet.close()


def config_path(given: Path | None) -> Path | None:
    """--config, else the installed table's config if there is one, else none (the defaults)."""
    if given is not None:
        return given
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def state_dir_for(given: Path | None, config) -> Path:
    """--state-dir, else the config's `state_dir`, else the default."""
    return given or (config.state_dir if config is not None else None) or default_state_dir()


def hardware_present(config) -> bool:
    """The configured reader's device node exists (the only sure sign of a Pi build)."""
    reader = config.reader
    if reader.kind == "sim":
        return False
    if reader.kind == "pn532":
        return Path(reader.serial_port).exists()
    return Path(f"/dev/spidev{reader.spi_bus}.{reader.spi_device}").exists()


def open_registry(state_dir: Path, sim: bool):
    from device.decks.registry import DeckRegistry
    from device.decks.simulated import SimDecks
    registry = DeckRegistry(state_dir)
    return SimDecks(registry) if sim else registry


def start_from_flags(app: Companion, args) -> str | None:
    """--game/--players/--first/--option: the meaning of the script directives."""
    try:
        spec = engine.get(args.game)
    except KeyError as exc:
        return str(exc.args[0])
    players = [p for p in (args.players or "").split(",") if p]
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            return say(app.language, "cli.run.option_form", item=item)
        options[key] = value
    decks = [d.name for d in app.registry.decks() if d.family == spec.deck]
    try:
        data = game_data(spec, app.store.dir)
        config = make_config(spec, players, args.first, options, data)
    except ConfigError as exc:
        return str(exc)
    app.start_game(Session(spec, config), decks[0] if decks else None)
    return None


def run_simulated(app: Companion, clock: VirtualClock, args, config) -> int:
    from hardware.sim_display import FrameDisplay, TerminalDisplay
    displays = [FrameDisplay(args.frames)]
    if sys.stdout.isatty():
        displays.append(TerminalDisplay(sys.stdout))
    r = config.reader
    field = SimReaderField(app.registry.sim_uid, misses=r.miss_limit, debounce_ms=r.debounce_ms,
                           clock=clock)
    frames = Frames(*displays)
    if sys.stdin.isatty():
        print(say(args.language, "cli.run.typing"))
    first = first_input(app.store.dir)
    run_sim(app, acknowledged(sys.stdin, first), clock, frames, field,
            lambda text: print(text, file=sys.stderr), first)
    app.store.close()
    return 0


def first_input(state_dir: Path) -> int:
    """Input numbers go on from the state dir's latest journal, so a simulator restarted with
    the rest of its input journals the numbers the uninterrupted run would have."""
    latest = latest_journal(state_dir)
    return (last_input(latest) if latest else 0) + 1


def acknowledged(lines, first: int):
    """The lines; with TABLETOP_SIM_ACK=1, `ack N` on standard error once line N is handled,
    so a test driving the process knows where it is without waiting on the clock."""
    ack = os.environ.get("TABLETOP_SIM_ACK") == "1"
    for number, line in enumerate(lines, first):
        yield line
        if ack:
            print(f"ack {number}", file=sys.stderr, flush=True)
