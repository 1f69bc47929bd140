"""A table assembled from its configuration: the deck registry, the game store and its history,
the app in the table's language, and the plugins the configuration asks for.

The app core knows none of the plugins: this is the one place that picks them (screen care
always; kiosk mode, feedback parts and the fleet when configured).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

import engine
from engine import ConfigError, Session, make_config

from .app import Companion
from .clock import SystemClock
from .decks.registry import DeckRegistry
from .decks.simulated import SimDecks
from .feedback import open_feedback
from .kiosk.plugin import kiosk_plugins
from .kiosk.system_actions import RecordedSystem, Systemctl
from .paths import default_state_dir
from .sim.clock import VirtualClock
from .storage.card_data import LearnedCards, game_data
from .storage.history import keep_history
from .storage.settings import table_language
from .storage.store import GameStore
from .texts import say
from .ui.prompt_timer import PromptTimer
from .ui.set_aside import SetAsideNotice
from .ui.wizard import Setup, deal_first, decks_for

log = logging.getLogger(__name__)


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
    registry = DeckRegistry(state_dir)
    return SimDecks(registry) if sim else registry


def assemble(config, state_dir: Path, *, sim: bool, out=None,
             config_problem: str | None = None) -> Companion:
    """The app of a table, with its plugins; in the simulator, on virtual time and printed parts.
    `config_problem`: why the config file was not used (the table says so once)."""
    if config_problem:
        log.error("config file not used as it stands: %s; started with the defaults for it",
                  config_problem)
    # before the store, the decks and the settings are read: from now until the table closes,
    # a file of theirs that does not read is moved aside, and the notice tells of it
    notice = SetAsideNotice(state_dir, config_unread=bool(config_problem))
    clock = VirtualClock() if sim else SystemClock()
    store = GameStore(state_dir, config.history.keep_journals, clock)
    keep_history(store)
    app = Companion(registry=open_registry(state_dir, sim), store=store, clock=clock,
                    language=table_language(state_dir, config.language, os.environ))
    app.attach(*kiosk_plugins(config.kiosk, RecordedSystem() if sim else Systemctl()),
               notice, LearnedCards(state_dir), PromptTimer())   # each plugin knows its place
    feedback = open_feedback(config, sim=sim, out=out)
    if feedback is not None:
        app.attach(feedback)
    if config.fleet.enabled:
        # imported here: a table outside the fleet starts without the fleet's modules, a
        # fifth of what a start imports
        from .fleet.plugin import open_fleet
        fleet = open_fleet(config, state_dir, clock.wall, clock.monotonic)
        if fleet is not None:
            app.attach(fleet, *fleet.parts)
    return app


def start_from_flags(app: Companion, args) -> str | None:
    """--game/--players/--first/--option: the meaning of the script directives. The game starts
    at once, and its deal instruction shows first, as from the setup menus."""
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
    decks = decks_for(app.registry, spec)
    try:
        data = game_data(spec, app.store.dir)
        config = make_config(spec, players, args.first, options, data)
    except ConfigError as exc:
        return str(exc)
    deck = decks[0] if decks else None
    app.start_game(Session(spec, config), deck)
    if app.session is not None:
        app.apply(deal_first(Setup(spec, deck, len(config.players), dict(config.options))))
    return None
