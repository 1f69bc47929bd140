"""What a setup gathers (the wizard's steps and the phone's setup lines fill it in) and the
session it makes: the seats named from the café's roster, the house rules over the game's
defaults, the game's card data, and the seats remembered for the next "Same players"."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from device.players.roster import Player, Roster, RosterError
from device.storage.card_data import game_data
from device.storage.seats import recall, remember
from engine import Session, make_config
from engine.core.spec import GameConfig, GameSpec
from engine.core.text import Msg

from .app_view import AppView

log = logging.getLogger(__name__)


@dataclass
class Setup:
    spec: GameSpec
    deck: str | None = None
    players: int = 0
    options: dict = field(default_factory=dict)
    first: str | None = None
    roster: tuple[Player, ...] = ()                          # the names offered, recent first
    seated: dict[int, str] = field(default_factory=dict)     # seat (from 1) -> a roster name
    note: Msg | None = None         # a player card just seated someone: the next step says so
    last: tuple[str, ...] = ()      # the last game's seats and who started: "Same players"
    last_first: str | None = None

    def names(self) -> tuple[str, ...]:
        return tuple(self.seated.get(n, f"P{n}") for n in range(1, self.players + 1))

    def house_rules(self) -> dict:
        """Every option's value: the defaults with the table's choices over them."""
        return {o.key: o.default for o in self.spec.options} | self.options

    def player_range(self) -> tuple[int, int]:
        return self.spec.player_range(tuple(self.house_rules().items()))


def decks_for(registry, spec: GameSpec) -> list[str]:
    """The names of the physical decks this game can be played with: its family's."""
    return [d.name for d in registry.decks() if d.family == spec.deck]


def new_session(app: AppView, setup: Setup) -> Session:
    config = config_of(app, setup)
    if setup.seated:
        remember_seated(app, config.players)
    # the game, for the game select to open on; its seats, or where its players join by tap
    # unnamed, the last seats known, still the next "Same players"
    players, first = (config.players, config.first) if config.players else recall(app.store.dir)
    remember(app.store.dir, players, first, setup.spec.id)
    return Session(setup.spec, config)


def config_of(app: AppView, setup: Setup) -> GameConfig:
    players = setup.names()          # none when a game's players join by tap
    data = game_data(setup.spec, app.store.dir)
    return make_config(setup.spec, players, setup.first, setup.options, data)


def roster_of(app: AppView) -> tuple[Player, ...]:
    """The café's roster; a roster that does not read offers no names (and says why once a
    setup), so the table still plays, with P1, P2, ..."""
    try:
        return tuple(Roster(app.store.dir).players())
    except (RosterError, OSError) as exc:
        log.error("players: %s", exc)
        return ()


def remember_seated(app: AppView, names: tuple[str, ...]) -> None:
    """The names just seated go to the top of the roster's offer."""
    try:
        Roster(app.store.dir).seated(names)
    except (RosterError, OSError) as exc:
        log.error("players: the roster's order not kept: %s", exc)
