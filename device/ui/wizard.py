"""The setup wizard: deck, house rules, player count, who sits where, who starts, the deal
instruction (which a game begun from the command line shows as well).

Each step is a small menu; the choices gather in a `Setup` and the last step
starts the game. House rules come before the player count because some of them
set the player range (Flouk's 2 and 6 players). Seats are named from the café's
roster (device/players/roster.py) when it has anyone, by the menu or a player
card's tap; a seat nobody names is P1, P2, ... Palourde's players join by Basket
taps instead, unless the roster has anyone: then the setup counts and names them
(seat n holds Basket n), asks who is youngest, and the game skips its own setup.
"""
from __future__ import annotations

from device.actions import NOTHING, Actions, Home, Play, Show, StartGame, Switch
from device.inputs import Tapped
from device.players.roster import card_holder
from device.storage.house_defaults import game_defaults
from device.storage.seats import recall
from engine import Tap
from engine.core.options import OptionSpec
from engine.core.spec import GameSpec
from engine.core.text import msg

from .app_view import AppView
from .game_view import header_name
from .house_rules import OptionLines
from .menu import Menu
from .modes import MenuMode, Mode, refusal
from .number import LEFT, NumberPicker
from .playing import Playing
from .screen import BODY_LINES, Screen
from .setup_choices import Setup, config_of, decks_for, new_session, roster_of


def begin_setup(app: AppView, spec: GameSpec, deck: str | None = None) -> Actions:
    # the house rules start from the café's for this table (sent from its back office)
    setup = Setup(spec, deck, options=game_defaults(app.store.dir, spec), roster=roster_of(app))
    setup.last, setup.last_first = recall(app.store.dir)
    if deck is None:
        decks = decks_for(app.registry, spec)
        if not decks:
            return [Show.of(msg("ui.no_deck", game=spec.name()))]
        if len(decks) > 1:
            return [Switch(DeckChoice(setup, decks))]
        setup.deck = decks[0]
    return next_step(app, setup, DeckChoice)


def steps() -> list[type[Step] | type[Instruction]]:
    return [DeckChoice, HouseRules, PlayerCount, Seats, FirstPlayer, Instruction]


def next_step(app: AppView, setup: Setup, after: type) -> Actions:
    """The first step after `after` that this game needs; after the last, the game."""
    order = steps()
    for step in order[order.index(after) + 1:]:
        if step.needed(setup):
            return [Switch(step(setup))]
    return start(app, setup)


def step_before(app: AppView, setup: Setup, before: type) -> Actions:
    """BACK: the step before `before` that this game asked, its choice kept; before the
    first, the game select."""
    order = steps()
    for step in reversed(order[:order.index(before)]):
        if step is DeckChoice:
            decks = decks_for(app.registry, setup.spec)
            if len(decks) > 1:
                return [Switch(DeckChoice(setup, decks))]
        elif step is Seats and step.needed(setup):
            return [Switch(Seats(setup).at_last_seat())]
        elif step.needed(setup):
            return [Switch(step(setup))]
    return [Home()]


def start(app: AppView, setup: Setup) -> Actions:
    return [StartGame(new_session(app, setup), setup.deck)]


class Step(MenuMode):
    def __init__(self, setup: Setup, items: list[tuple[str, str]] | None = None,
                 prompt: str = "") -> None:
        super().__init__(items or [], prompt)
        self.setup = setup

    @staticmethod
    def needed(setup: Setup) -> bool:
        return True

    def header(self, app: AppView):
        return app.t(header_name(self.setup.spec)), ""

    def screen(self, app: AppView) -> Screen:
        if self.setup.note is not None:        # above the step's own question
            self.prompt = f"{app.t(self.setup.note)}\n{self.prompt}"
        return super().screen(app)

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        self.setup.note = None
        return super().button(app, name, held)

    def leave(self, app: AppView) -> Actions:
        return step_before(app, self.setup, type(self))

    def done(self, app: AppView) -> Actions:
        return next_step(app, self.setup, type(self))


class DeckChoice(Step):
    def __init__(self, setup: Setup, decks: list[str] | None = None) -> None:
        super().__init__(setup, [(d, d) for d in decks or []])

    def screen(self, app: AppView) -> Screen:
        self.prompt = app.t("ui.which_deck")
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        self.setup.deck = key
        return self.done(app)


class PlayerCount(Step):
    """How many players, or first of all "Same players": the last game's seats, their names
    and who started, straight to the deal (a rematch in at most 3 presses)."""

    def __init__(self, setup: Setup) -> None:
        low, high = setup.player_range()
        same = [(SAME, "")] if low <= len(setup.last) <= high else []
        super().__init__(setup, same + [(str(n), "") for n in range(low, high + 1)])
        self.menu.select_key(str(setup.players))      # back from the seats: the count taken

    @staticmethod
    def needed(setup: Setup) -> bool:
        return not setup.spec.joins_by_tap or bool(setup.roster) or bool(setup.last)

    def screen(self, app: AppView) -> Screen:
        self.prompt = app.t("ui.players")
        self.menu.items = [(k, app.t("ui.same_players") if k == SAME else app.t("ui.players_n", n=k))
                           for k, _ in self.menu.items]
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        if key == SAME:
            setup = self.setup
            setup.players = len(setup.last)
            setup.seated = dict(enumerate(setup.last, 1))
            setup.first = setup.last_first if FirstPlayer.needed(setup) else None
            return next_step(app, setup, FirstPlayer if setup.first or not FirstPlayer.needed(
                setup) else Seats)
        self.setup.players = int(key)
        return self.done(app)


SAME = "__same__"              # a menu key no count is


class HouseRules(Step):
    """Each option shows its name and value; "Start game" goes on. SELECT cycles an on/off or
    a choice; on a number it opens the number for UP/DOWN (tens, then units), and SELECT
    after the last digit sets it; BACK goes back to the tens, and from the tens leaves the
    number as it was."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup, [("__start__", "")] + [(o.key, "") for o in setup.spec.options])
        self.values = setup.house_rules()         # back from a later step: the choices kept
        self.editing: tuple[str, NumberPicker] | None = None
        self.was: object = None                   # the number being edited, as it was
        self.option_lines = OptionLines()

    @staticmethod
    def needed(setup: Setup) -> bool:
        return bool(setup.spec.options)

    def screen(self, app: AppView) -> Screen:
        self.prompt = app.t("ui.house_rules" if self.editing is None else "ui.set_number")
        shown = dict(self.values)
        if self.editing is not None:
            shown[self.editing[0]] = self.editing[1].shown()
        self.menu.items = [("__start__", app.t("ui.start"))] + [
            (key, self.option_lines.line(app, key, value)) for key, value in shown.items()]
        return super().screen(app)

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if self.editing is None:
            return super().button(app, name, held)
        key, picker = self.editing
        done = picker.press(name)
        self.values[key] = self.was if done == LEFT else picker.value
        if done is not None:                     # set, or given up as it was
            self.editing = None
        return NOTHING

    def take(self, app: AppView, key: str) -> Actions:
        if key == "__start__":
            return self.start(app)
        option = next(o for o in self.setup.spec.options if o.key == key)
        numbers = option_numbers(option)
        if numbers is not None:
            self.editing = key, NumberPicker(numbers, int(str(self.values[key])))
            self.was = self.values[key]
            return NOTHING
        values = option.menu_values()
        current = values.index(self.values[key]) if self.values[key] in values else 0
        self.values[key] = values[(current + 1) % len(values)]
        return NOTHING

    def start(self, app: AppView) -> Actions:
        spec = self.setup.spec
        self.setup.options = {k: v for k, v in self.values.items()
                              if v != next(o.default for o in spec.options if o.key == k)}
        low, high = self.setup.player_range()
        if low > high:
            return [Show.of(msg("ui.no_player_count"))]
        return self.done(app)


# The top of a number the rules leave open (Tamalou's failed-call penalty): as far as the
# picker's two digits go. A script may still set more (`option caller_fail_penalty=150`).
OPEN_TOP = 99


def option_numbers(option: OptionSpec) -> range | None:
    """The numbers a whole-number house rule can take from the menu: its own range, or up to
    OPEN_TOP when the rules give it no top."""
    if option.kind != "int" or option.minimum is None:
        return None
    top = option.maximum if option.maximum is not None else max(OPEN_TOP, option.minimum)
    return range(option.minimum, top + 1)


class Seats(Step):
    """Seat by seat: the roster's names not seated yet, the most recent first, then the seat's
    number for nobody named. A player card's tap seats its player; BACK frees the seat before.
    Where players join by tap, seat n is whoever holds Basket (or the like) n."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.seat = 1
        self.offer()

    @staticmethod
    def needed(setup: Setup) -> bool:
        return bool(setup.roster)

    def offer(self) -> None:
        taken = set(self.setup.seated.values())
        names = [(p.short, p.short) for p in self.setup.roster if p.short not in taken]
        self.menu = Menu([*names, (UNNAMED, f"P{self.seat}")])

    def screen(self, app: AppView) -> Screen:
        asks = self.setup.spec.look.asks_seat or msg("ui.who_sits")
        self.prompt = app.t(asks.key, seat=self.seat, n=self.setup.players)
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        if key != UNNAMED:
            self.setup.seated[self.seat] = key
        if self.seat == self.setup.players:
            return self.done(app)
        self.seat += 1
        self.offer()
        return NOTHING

    def leave(self, app: AppView) -> Actions:
        if self.seat == 1:
            return super().leave(app)
        self.seat -= 1
        self.setup.seated.pop(self.seat, None)
        self.offer()
        return NOTHING

    def at_last_seat(self) -> Seats:
        """Back from the step after: the last seat asked again, the others kept."""
        self.seat = self.setup.players
        self.setup.seated.pop(self.seat, None)
        self.offer()
        return self

    def knows(self, uid: str) -> bool:
        return card_holder(self.setup.roster, uid) is not None

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        holder = None if tapped.ref is not None else card_holder(self.setup.roster, tapped.uid)
        if holder is None:
            return super().tap(app, tapped)
        if holder.short in self.setup.seated.values():
            return [Show.of(msg("ui.seated_already", name=holder.short))]
        seated = msg("ui.seated", name=holder.short, seat=self.seat)
        taken = self.take(app, holder.short)
        if all(isinstance(a, Switch) and isinstance(a.mode, Step) for a in taken):
            self.setup.note = seated           # the next seat's screen (or step's) says it
            return taken
        return [*taken, Show.of(seated)]       # the deal, or the game: a message over it


UNNAMED = "no one"             # a menu key no name can be: names are one word


class FirstPlayer(Step):
    def __init__(self, setup: Setup) -> None:
        super().__init__(setup, [(name, name) for name in setup.names()])

    @staticmethod
    def needed(setup: Setup) -> bool:
        return setup.spec.look.asks_first is not None and setup.players > 0

    def screen(self, app: AppView) -> Screen:
        asks = self.setup.spec.look.asks_first
        assert asks is not None               # needed() says so
        self.prompt = app.t(asks)
        return super().screen(app)

    def take(self, app: AppView, key: str) -> Actions:
        self.setup.first = key
        return self.done(app)


def deal_first(setup: Setup) -> Actions:
    """A game begun from the command line shows its deal instruction too, before its first
    prompt: the table must deal whichever way the game was started (Palourde's players given,
    its own setup skipped, included)."""
    if setup.spec.look.deal is None or (setup.spec.joins_by_tap and not setup.players):
        return NOTHING
    return [Switch(Instruction(setup, begun=True))]


class Instruction(Mode):
    """The deal instruction: SELECT when done. From the setup menus the game begins then and
    BACK goes back to the step before; a game begun from the command line is already on, so
    SELECT only leads to its first prompt. Where the first prompt asks for a card, a card
    tapped here is that card: the table has dealt and plays on."""

    def __init__(self, setup: Setup, begun: bool = False) -> None:
        self.setup, self.begun = setup, begun

    @staticmethod
    def needed(setup: Setup) -> bool:
        """From the menus: a game whose players join by tap deals in its own setup, after,
        unless the setup named them."""
        return setup.spec.look.deal is not None and (not setup.spec.joins_by_tap
                                                     or setup.players > 0)

    def screen(self, app: AppView) -> Screen:
        deal = self.setup.spec.look.deal
        assert deal is not None               # needed() says so
        # The instruction may quote a house rule ("Give {start_tokens} tokens each").
        text = app.t(deal.key, **self.setup.house_rules())
        lines, more = self.paged(app, text, BODY_LINES)
        return Screen(app.t(header_name(self.setup.spec)), "", tuple(lines),
                      more=len(lines) - 1 if more else None, above=self.later_page(app))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "down":
            self.turn_page(app)
        if name == "select" and self.begun:
            return [Switch(Playing())]
        if name == "select":
            return start(app, self.setup)
        return step_before(app, self.setup, Instruction) if name == "back" and not self.begun \
            else NOTHING

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        spec = self.setup.spec
        why = refusal(tapped.ref, spec, self.setup.deck)
        if why is not None:
            return [Show.of(why)]
        state = app.game().state if self.begun else spec.initial(config_of(app, self.setup))
        if Tap not in spec.allowed(state):     # the deal screen asks more than a deal
            return super().tap(app, tapped)
        begin = [Switch(Playing())] if self.begun else start(app, self.setup)
        return [*begin, Play(Tap(tapped.ref.card))]
