"""Palourde's table: its components, phases and house options, the State, and the small
facts the rules and the screens both read (whose Basket, how many clams, who plays next)."""
from __future__ import annotations

from tabletop_kit import (
    SHARED,
    TIE_RULES,
    OptionSpec,
    PerSeat,
    Table,
    card_ids,
    kind_of,
    msg,
    next_seat,
    of,
    record,
    replace,
)

# ---- metadata ----------------------------------------------------------------

# §1.1 Components: (kind, copies). The Beach is every kind but basket and golden_clam.
BEACH_KINDS = (("clam", 20), ("rake", 4), ("crab", 4), ("shrimp", 4), ("bird", 4), ("beach", 6),
               ("shell", 6), ("high_tide", 3), ("storm_warning", 1), ("basket_overboard", 1))
COMPONENTS = (("basket", 5),) + BEACH_KINDS + (("golden_clam", 1),)
BEACH = frozenset(card_ids(BEACH_KINDS))          # the 53 cards shuffled face down
CLAMS = frozenset(card for card in BEACH if kind_of(card) == "clam")
EVENTS = ("high_tide", "storm_warning", "basket_overboard")
PRIZES = ("golden_clam", "title")
HIGH_TIDES_TO_END = 3
BIRD_FOOD = ("clam", "crab", "shell", "shrimp")   # §1.4: a Bird eats these

# Phases (§1.5)
JOIN, FIRST, SETUP_BEACH = "join", "first", "beach"
FLIP1, FLIP2, VICTIM, STORM, OVER = "flip1", "flip2", "victim", "storm", "over"

OPTIONS = (
    OptionSpec("replay_after_clam_pair", False, note="AMB-P11"),
    OptionSpec("storm_ends_turn", True, note="AMB-P7"),
    OptionSpec("storm_resets_high_tides", False, note="AMB-P8"),
    OptionSpec("peek_reminder", True, note="AMB-P15"),
    OptionSpec("tie_rule", SHARED, kind="choice", choices=TIE_RULES, note="AMB-P16"),
    OptionSpec("show_beach_counts", False, note="§1.6"),
)


# ---- the state ---------------------------------------------------------------

@record
class State(Table):
    """The table in a Palourde game: seats in join order; `current` is None until play starts."""

    baskets: tuple[int, ...]          # the Basket index each seat holds
    beach_down: frozenset[str]
    ht_up: frozenset[str]
    removed: frozenset[str]           # discarded, or in a basket
    clams: PerSeat
    first_flip: str | None = None
    peek_reminder: str | None = None  # who peeked with Shrimps (AMB-P15)


# ---- helpers -----------------------------------------------------------------

def basket_card(index: int) -> str:
    return f"basket#{index}"


def seat_of_basket(state: State, card: str) -> str | None:
    for seat, index in zip(state.seats, state.baskets):
        if basket_card(index) == card:
            return seat
    return None


def clams_of(state: State, seat: str) -> int:
    return of(state.clams, seat)


def next_player(state: State) -> str:
    return next_seat(state.seats, state.to_play)


def new_turn(state: State, seat: str) -> State:
    """FLIP1 for `seat`. A peek reminder lasts through the next player's turn and replays (AMB-P15)."""
    reminder = state.peek_reminder if seat == state.current else None
    return replace(state, phase=FLIP1, current=seat, first_flip=None,
                   peek_reminder=reminder)


def pass_turn(state: State) -> State:
    return new_turn(state, next_player(state))


def eligible_victims(state: State) -> tuple[str, ...]:
    """AMB-P12: only other players with at least one clam can be robbed."""
    return tuple(q for q in state.seats if q != state.current and clams_of(state, q) >= 1)


def kind_name(card: str):
    return msg(f"pa.kind.{kind_of(card)}")
