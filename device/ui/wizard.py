"""The setup wizard: deck, house rules, player count, who starts, the deal instruction (which a
game begun from the command line shows as well).

Each step is a small menu; the choices gather in a `Setup` and the last step
starts the game. House rules come before the player count because some of them
set the player range (Flouk's 2 and 6 players). Palourde's players join by
Basket taps instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from device.storage.card_data import game_data
from engine import Session, make_config
from engine.core.spec import GameSpec
from engine.core.text import msg

from .game_view import header_name, view
from .house_rules import option_line
from .modes import MenuMode, Mode
from .playing import Playing
from .screen import Screen, wrap


@dataclass
class Setup:
    spec: GameSpec
    deck: str | None = None
    players: int = 0
    options: dict = field(default_factory=dict)
    first: str | None = None

    def names(self) -> tuple[str, ...]:
        return tuple(f"P{n}" for n in range(1, self.players + 1))

    def house_rules(self) -> dict:
        """Every option's value: the defaults with the table's choices over them."""
        return {o.key: o.default for o in self.spec.options} | self.options

    def player_range(self) -> tuple[int, int]:
        return self.spec.player_range(tuple(self.house_rules().items()))


def begin_setup(app, spec: GameSpec, deck: str | None = None) -> None:
    setup = Setup(spec, deck)
    if deck is None:
        decks = [d.name for d in app.registry.decks() if d.family == spec.deck]
        if not decks:
            app.show(msg("ui.no_deck", game=spec.name()))
            return
        if len(decks) > 1:
            app.set_mode(DeckChoice(setup, decks))
            return
        setup.deck = decks[0]
    next_step(app, setup, DeckChoice)


def next_step(app, setup: Setup, after: type) -> None:
    """Move to the first step after `after` that this game needs."""
    steps = [DeckChoice, HouseRules, PlayerCount, FirstPlayer, Instruction]
    for step in steps[steps.index(after) + 1:]:
        if step.needed(setup):
            app.set_mode(step(setup))
            return
    start(app, setup)


def start(app, setup: Setup) -> None:
    players = () if setup.spec.joins_by_tap else setup.names()
    data = game_data(setup.spec, app.store.dir)
    config = make_config(setup.spec, players, setup.first, setup.options, data)
    app.start_game(Session(setup.spec, config), setup.deck)


class Step(MenuMode):
    def __init__(self, setup: Setup, items, prompt: str = "") -> None:
        super().__init__(items, prompt)
        self.setup = setup

    @staticmethod
    def needed(setup: Setup) -> bool:
        return True

    def header(self, app):
        return app.t(header_name(self.setup.spec)), ""

    def leave(self, app) -> None:
        app.home()

    def done(self, app) -> None:
        next_step(app, self.setup, type(self))


class DeckChoice(Step):
    def __init__(self, setup: Setup, decks: list[str] | None = None) -> None:
        super().__init__(setup, [(d, d) for d in decks or []])

    def screen(self, app) -> Screen:
        self.prompt = app.t("ui.which_deck")
        return super().screen(app)

    def take(self, app, key: str) -> None:
        self.setup.deck = key
        self.done(app)


class PlayerCount(Step):
    def __init__(self, setup: Setup) -> None:
        low, high = setup.player_range()
        super().__init__(setup, [(str(n), "") for n in range(low, high + 1)])

    @staticmethod
    def needed(setup: Setup) -> bool:
        return not setup.spec.joins_by_tap

    def screen(self, app) -> Screen:
        self.prompt = app.t("ui.players")
        self.menu.items = [(k, app.t("ui.players_n", n=k)) for k, _ in self.menu.items]
        return super().screen(app)

    def take(self, app, key: str) -> None:
        self.setup.players = int(key)
        self.done(app)


class HouseRules(Step):
    """Each option shows its name and value; SELECT cycles the value; "Start game" goes on."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup, [("__start__", "")] + [(o.key, "") for o in setup.spec.options])
        self.values = {o.key: o.default for o in setup.spec.options}

    @staticmethod
    def needed(setup: Setup) -> bool:
        return bool(setup.spec.options)

    def screen(self, app) -> Screen:
        self.prompt = app.t("ui.house_rules")
        self.menu.items = [("__start__", app.t("ui.start"))] + [
            (key, option_line(app, key, value)) for key, value in self.values.items()]
        return super().screen(app)

    def take(self, app, key: str) -> None:
        if key == "__start__":
            spec = self.setup.spec
            self.setup.options = {k: v for k, v in self.values.items()
                                  if v != next(o.default for o in spec.options if o.key == k)}
            low, high = self.setup.player_range()
            if low > high:
                app.show(msg("ui.no_player_count"))
            else:
                self.done(app)
            return
        option = next(o for o in self.setup.spec.options if o.key == key)
        values = option.menu_values()
        current = values.index(self.values[key]) if self.values[key] in values else 0
        self.values[key] = values[(current + 1) % len(values)]


class FirstPlayer(Step):
    def __init__(self, setup: Setup) -> None:
        super().__init__(setup, [(name, name) for name in setup.names()])

    @staticmethod
    def needed(setup: Setup) -> bool:
        return view(setup.spec.id).asks_first is not None

    def screen(self, app) -> Screen:
        self.prompt = app.t(view(self.setup.spec.id).asks_first)
        return super().screen(app)

    def take(self, app, key: str) -> None:
        self.setup.first = key
        self.done(app)


def deal_first(app, setup: Setup) -> None:
    """A game begun from the command line shows its deal instruction too, before its first
    prompt: the table must deal whichever way the game was started."""
    if Instruction.needed(setup):
        app.set_mode(Instruction(setup, begun=True))


class Instruction(Mode):
    """The deal instruction: SELECT when done. From the setup menus the game begins then and
    BACK goes back to the game select; a game begun from the command line is already on, so
    SELECT only leads to its first prompt."""

    def __init__(self, setup: Setup, begun: bool = False) -> None:
        self.setup, self.begun = setup, begun

    @staticmethod
    def needed(setup: Setup) -> bool:
        return view(setup.spec.id).deal is not None

    def screen(self, app) -> Screen:
        # The instruction may quote a house rule ("Give {start_tokens} tokens each").
        lines = wrap(app.t(view(self.setup.spec.id).deal.key, **self.setup.house_rules()))
        return Screen(app.t(header_name(self.setup.spec)), "", tuple(lines[:4]))

    def button(self, app, name: str, held: bool) -> None:
        if name == "select" and self.begun:
            app.set_mode(Playing())
        elif name == "select":
            start(app, self.setup)
        elif name == "back" and not self.begun:
            app.home()
