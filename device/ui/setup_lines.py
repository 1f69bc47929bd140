"""The setup told in lines, as a phone's page tells it: the same words a replay script's
directives use (docs/scripts.md), each one step the wizard takes at once, so the OLED shows
it and the table's buttons can take over from there.

    game GAME               the game select's choice: its setup begins, house rules first
    option KEY=VALUE ...    house rules, checked as a script's are; the house rules shown
    players NAME NAME ...   the seats in order, each a roster name; who starts (or the deal) shown
    first NAME              who starts, where the game asks; its step shown
    start                   the deal instruction (a card tapped there is the first card)

A line is checked whole before anything changes: a refused one raises SetupRefused with one
line saying why, and the setup stays as it was. What a line wants done it returns as actions.
"""
from __future__ import annotations

from device.actions import Actions, Switch
from engine.core.options import ConfigError, resolve_options
from engine.core.script import InputError, line_words, shown

from .app_view import AppView
from .game_select import GameSelect, OfferGame, games
from .modes import Mode
from .setup_choices import Setup, config_of, roster_of
from .wizard import FirstPlayer, HouseRules, Instruction, PlayerCount, Step, begin_setup, start

WORDS = ("game", "option", "players", "first", "start")


class SetupRefused(ValueError):
    """A setup line the table does not take, and why (one line)."""


def setup_of(mode: Mode) -> Setup | None:
    """The setup a wizard's step holds; None outside the setup."""
    if isinstance(mode, (Step, Instruction)) and not getattr(mode, "begun", False):
        return mode.setup
    return None


def told(app: AppView, mode: Mode, line: str) -> Actions:
    """What the setup line asks, as actions; SetupRefused, nothing changed, if it cannot be."""
    try:
        words = line_words(line)
    except InputError as exc:
        raise SetupRefused(str(exc)) from None
    if not words or words[0] not in WORDS:
        said = shown(words[0]) if words else "nothing"
        raise SetupRefused(f"a setup line starts with {', '.join(WORDS)}, not {said}")
    verb, args = words[0], words[1:]
    if app.session is not None:
        raise SetupRefused("a game is on: its setup is over")
    setup = setup_of(mode)
    if verb == "game":
        return chosen_game(app, mode, setup, args)
    if setup is None:
        raise SetupRefused("no setup is on: choose a game first ('game GAME')")
    if verb == "option":
        return house_rules(setup, args)
    if verb == "players":
        return seated(app, setup, args)
    if verb == "first":
        return first_player(setup, args)
    if args:
        raise SetupRefused("'start' takes no word")
    return started(app, setup)


def chosen_game(app: AppView, mode: Mode, setup: Setup | None, args: list[str]) -> Actions:
    if len(args) != 1:
        raise SetupRefused("'game' takes one word: palourde, auberge, ...")
    if setup is None and not isinstance(mode, (GameSelect, OfferGame)):
        raise SetupRefused("the table is busy: back to the game select first")
    spec = next((s for s in games() if s.id == args[0]), None)
    if spec is None:
        known = ", ".join(s.id for s in games())
        raise SetupRefused(f"no game {shown(args[0])} (known: {known})")
    if setup is not None and setup.spec is spec:
        return []                      # already this game's setup: its choices kept
    return begin_setup(app, spec)


def house_rules(setup: Setup, args: list[str]) -> Actions:
    given: dict[str, object] = {}
    for item in args or [""]:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise SetupRefused(f"option must be key=value, not {shown(item)}")
        given[key] = value
    try:
        values = dict(resolve_options(setup.spec.options, setup.options | given))
    except ConfigError as exc:
        raise SetupRefused(str(exc)) from None
    defaults = {o.key: o.default for o in setup.spec.options}
    setup.options = {k: v for k, v in values.items() if v != defaults[k]}
    step = HouseRules(setup)
    step.menu.select_key(next(iter(given)))
    return [Switch(step)]


def seated(app: AppView, setup: Setup, names: list[str]) -> Actions:
    low, high = setup.player_range()
    if not low <= len(names) <= high:
        raise SetupRefused(f"{setup.spec.title} takes {low} to {high} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise SetupRefused("a name is seated once")
    known = {player.short for player in roster_of(app)}
    stranger = next((name for name in names if name not in known), None)
    if stranger is not None:
        raise SetupRefused(f"{shown(stranger)} is not among the café's players: add the name first")
    setup.players = len(names)
    setup.seated = dict(enumerate(names, 1))
    setup.roster = roster_of(app)
    if setup.first not in names:
        setup.first = None
    return [Switch(after_seats(setup))]


def after_seats(setup: Setup) -> Mode:
    """Where the OLED goes once the seats are told: who starts where the game asks, else
    the deal instruction."""
    if FirstPlayer.needed(setup):
        step = FirstPlayer(setup)
        if setup.first is not None:
            step.menu.select_key(setup.first)
        return step
    return Instruction(setup) if Instruction.needed(setup) else PlayerCount(setup)


def first_player(setup: Setup, args: list[str]) -> Actions:
    if len(args) != 1:
        raise SetupRefused("'first' takes one name")
    if not FirstPlayer.needed(setup):
        raise SetupRefused(f"{setup.spec.title} does not ask who starts" if setup.spec.look.asks_first
                           is None else "seat the players first ('players NAME ...')")
    if args[0] not in setup.names():
        raise SetupRefused(f"{shown(args[0])} is not seated")
    setup.first = args[0]
    return [Switch(after_seats(setup))]


def started(app: AppView, setup: Setup) -> Actions:
    """The setup done: the deal instruction (or the game, where there is none); who starts,
    where the game asks and nobody said, is the first seat, as in a script."""
    if not setup.players and not setup.spec.joins_by_tap:
        raise SetupRefused("seat the players first ('players NAME ...')")
    first = setup.first if setup.first in setup.names() else None   # (a seat the table freed)
    if first is None and FirstPlayer.needed(setup):
        first = setup.names()[0]
    try:
        config_of(app, Setup(setup.spec, setup.deck, setup.players, setup.options, first,
                             seated=setup.seated))
    except ConfigError as exc:
        raise SetupRefused(str(exc)) from None
    setup.first = first
    if Instruction.needed(setup):
        return [Switch(Instruction(setup))]
    return start(app, setup)
