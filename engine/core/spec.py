"""GameSpec: what a game is (metadata, components, options) and the functions that run it."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, cached_property, lru_cache
from typing import Any, Generic, TypeVar

from .events import Event, Tap
from .options import ConfigError, Options, OptionSpec, resolve_options
from .outcomes import Info, Prompt, Rejected, Result, Tally
from .record import field, record
from .text import DEFAULT_LANGUAGE, Msg, Template, catalog, msg

S = TypeVar("S")        # a game's state: GameSpec[State] lets mypy check each function against it

# What a game's `play` answers: a refusal, a look that changes nothing, or the new state and
# the messages it produced (its `seq` is counted by the engine).
Played = Rejected | Info | tuple[S, tuple[Msg, ...]]


def current_badge(tally: Tally) -> Msg | None:
    """The badge of a game with no figure of its own: whose turn it is."""
    return msg("core.name", name=tally.current) if tally.current else None


@record(slots=False)
class Look:
    """How a game shows on the table's screen beyond its prompts.

    The device reads this and never branches on a game's id. `badge` turns the
    tally into the header's right side: the figure a table glances at most.
    """

    name: Msg | None = None             # the header's name: the title in capitals, or shorter
    badge: Callable[[Tally], Msg | None] = current_badge
    asks_first: Msg | None = None       # the setup asks who starts (or who holds the Button)
    asks_seat: Msg | None = None        # the setup's question for seat {seat} of {n}, where a
                                        # seat is a card held (Palourde's Basket n)
    deal: Msg | None = None             # the instruction shown before the first prompt
    lowest_wins: bool = False           # the ranking puts the lowest score first


@record(slots=False)
class GameConfig:
    """How a game starts: seats clockwise, who starts, house rules, card data.

    `players` empty means the game's own setup collects them (Palourde's Basket taps).
    `data` carries game data that the rules read (Flouk's card file); JSON-like values only.
    """

    game: str
    players: tuple[str, ...]
    first: str | None = None
    options: Options = ()
    data: Any = field(default=None, hash=False)


@record(slots=False)
class GameSpec(Generic[S]):
    """A registered game. The callables are pure functions of the state, typed by it: a game's
    `GameSpec(..., state_type=State, initial=initial, ...)` is a GameSpec[State], and mypy holds
    each function given to it to that state."""

    id: str
    title: str
    deck: str                     # the physical deck family: palourde, pirates, tamalou, flouk
    min_players: int
    max_players: int
    components: tuple[tuple[str, int], ...]   # (kind, copies), as the rulebook counts them
    options: tuple[OptionSpec, ...]
    state_type: type[S]
    initial: Callable[[GameConfig], S]
    allowed: Callable[[S], frozenset[type]]   # event types the current phase takes
    hint: Callable[[S], Msg]                  # why a tap or button is not expected now
    play: Callable[[S, Event], Played[S]]
    prompt: Callable[[S], Prompt]
    tally: Callable[[S], Tally]
    result: Callable[[S], Result | None]
    invariants: Callable[[S], Sequence[str]]  # what is broken: empty in every reachable state
    rules_version: int = 1
    max_events: int = 5000
    extra_cards: tuple[str, ...] = ()         # known ids outside the play components (title card, jokers)
    joins_by_tap: bool = False                # players may be collected by the game itself
    player_limits: Callable[[Options], tuple[int, int]] | None = field(default=None, compare=False)
    data_check: Callable[[Any], Any] | None = field(default=None, compare=False)
    # a deck whose cards carry printed details (Flouk's): what is wrong with a café's card file,
    # parsed ({"cards": {id: table}}), and with one detail a table learned (card, detail, value)
    card_problems: Callable[[Any], list[str]] | None = field(default=None, compare=False)
    detail_problem: Callable[[str, str, object], str | None] | None = field(default=None, compare=False)
    reminder: Callable[[S], Msg | None] | None = field(default=None, compare=False)
    look: Look = field(default=Look(), compare=False)
    # The keys of the texts that ask the table to do something with cards or tokens ("Take 1
    # clam from Bob's Basket"): the device keeps them on screen until the next input and can
    # show them again, where a text that only informs may go after a while.
    instructions: frozenset[str] = field(default=frozenset(), compare=False)
    card_name: Callable[[str], Msg | None] | None = field(default=None, compare=False)  # a kind's name
    # an input in the game's words, on the state it was made on ("Bob snapped 7 of clubs"), for
    # the undo question; None where "Ann played 7 of clubs" / "Ann chose Bob" says it right
    event_words: Callable[[S, Event], Msg | None] | None = field(default=None, compare=False)
    order: int = 100                          # place in the game menu, lowest first
    # A game is one package: `home` names it, and in it lie deck.toml (the deck's manifest),
    # rules.md (its house rules explained, for docs/rules.md) and demo.script (a replay that
    # plays a game to its end). A variant that plays another game's deck names that game's
    # package in `manifest_from` (A tribord! plays L'Auberge's deck).
    home: str = ""
    manifest_from: str = ""
    # language -> key -> text: everything this game's messages need, in English and French
    # at least. The registry adds them to the catalogs as it takes the game in.
    texts: Mapping[str, Mapping[str, Template]] = field(default_factory=dict, compare=False)

    def name(self) -> Msg:
        """The game's name in the table's language (À tribord ! in French): its catalog's
        `game.<id>` text where there is one, else its title."""
        key = f"game.{self.id}"
        return msg(key) if key in catalog(DEFAULT_LANGUAGE) else msg("core.name", name=self.title)

    def card_ids(self) -> tuple[str, ...]:
        """Every card id of this game's deck, play components first."""
        return self._card_ids

    # Asked for every candidate event of every state, and the deck never changes: worked out
    # once per game (a cached_property writes the instance's dict, past the frozen __setattr__,
    # and leaves the fields, so equality and hash, as they are).
    @cached_property
    def _card_ids(self) -> tuple[str, ...]:
        return card_ids(tuple((kind, copies) for kind, copies in self.components)) + self.extra_cards

    @cached_property
    def own_cards(self) -> frozenset[str]:
        """The card ids of this game's deck, as a set: a tap of one needs no other game."""
        return frozenset(self.card_ids())

    @cached_property
    def taps(self) -> tuple[Tap, ...]:
        """A tap of each card of the deck, in card_ids' order: the candidate taps of a state."""
        return tuple(Tap(card) for card in self.card_ids())

    def manifest_home(self) -> str:
        """The package whose deck.toml is this game's deck manifest."""
        return self.manifest_from or self.home

    def player_range(self, options: Options) -> tuple[int, int]:
        if self.player_limits:
            return self.player_limits(options)
        return self.min_players, self.max_players


@cache        # asked for every candidate event of every state: the deck never changes
def card_ids(components: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """`kind` for a single copy, `kind#1..n` otherwise."""
    ids: list[str] = []
    for kind, copies in components:
        ids.extend([kind] if copies == 1 else [f"{kind}#{n}" for n in range(1, copies + 1)])
    return tuple(ids)


@lru_cache(maxsize=4096)   # asked of each card at every rule's look at it: a deck has few cards
def kind_of(card: str) -> str:
    """The kind of a card id: `clam#3` -> `clam`, `KS` -> `KS`."""
    return card.split("#", 1)[0]


def make_config(spec: GameSpec[Any], players: list[str] | tuple[str, ...], first: str | None = None,
                options: Mapping[str, object] | None = None, data: Any = None) -> GameConfig:
    """A checked GameConfig; ConfigError with a message naming the problem."""
    resolved = resolve_options(spec.options, dict(options or {}))
    players = tuple(players)
    low, high = spec.player_range(resolved)
    if players or not spec.joins_by_tap:
        if not low <= len(players) <= high:
            raise ConfigError(f"{spec.title} needs {low}-{high} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ConfigError("player names must differ")
        bad = [p for p in players if not p or any(ch.isspace() for ch in p)]
        if bad:
            raise ConfigError(f"player name {bad[0]!r} must be a single word")
    if first is not None and first not in players:
        raise ConfigError(f"first player {first} is not among the players")
    if spec.data_check:
        data = spec.data_check(data)
    return GameConfig(spec.id, players, first, resolved, data)
