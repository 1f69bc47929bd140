"""Flouk's metadata (phases, house options), its state, and the zones a card can be in.

A card the device has seen is tracked by id: in a village, a Decree slot, the
discard, or revealed and waiting to resolve. Every other card is hidden and
only counted: the pile, each hand (best effort) and the face-down discards
(the last card of each hand). Hidden counts plus tracked ids are always 100.
"""
from __future__ import annotations

from tabletop_kit import (
    SHARED,
    TIE_RULES,
    Msg,
    Options,
    OptionSpec,
    Table,
    add,
    clockwise_from,
    given,
    msg,
    of,
    option,
    option_of,
    record,
    replace,
    with_value,
)

from .cards import CHIEF, DECK_SIZE, FLOUK, MANUAL, CardInfo, default_info, people_of_id, type_of

# ---- metadata ----------------------------------------------------------------

# Phases (§5.4). RESOLVE is transient: `play` never leaves a state in it.
DEAL, PILE_CHECK, REVEAL, SURE = "deal", "pile_check", "reveal", "no_card_sure"
ORDER, RESOLVE = "order", "resolve"
EFFECT_TARGET, EFFECT_CARD = "effect_target", "effect_card"
REPORT, REPORT_DEST, REPORT_FROM = "report", "report_dest", "report_from"
FACE_DOWN_FROM, FACE_DOWN_TO = "face_down_from", "face_down_to"
LAST, CENSUS, ADJUST, OVER = "last", "census", "decree_adjust", "over"
LEARN = "learn"
PHASES = (DEAL, PILE_CHECK, REVEAL, SURE, ORDER, LEARN, EFFECT_TARGET, EFFECT_CARD, REPORT, REPORT_DEST,
          REPORT_FROM, FACE_DOWN_FROM, FACE_DOWN_TO, LAST, CENSUS, ADJUST, OVER)

CARDS_DEALT = 4          # §5.4 ROUND_START: 4 each
PILE, DISCARD = "pile", "discard"

OPTIONS = (
    OptionSpec("min_players", 3, kind="int", minimum=2, maximum=6, note="AMB-F1"),
    OptionSpec("max_players", 5, kind="int", minimum=2, maximum=6, note="AMB-F1"),
    OptionSpec("chief_counts_as_member", True, note="AMB-F4"),
    OptionSpec("decree_applies_to_chiefs", True, note="AMB-F5"),
    OptionSpec("white_tie", "seat_from_lead", kind="choice", choices=("seat_from_lead", "prompt"),
               note="AMB-F7"),
    OptionSpec("round_turns", "fixed3", kind="choice", choices=("fixed3", "until_hands_le1"),
               note="AMB-F10"),
    OptionSpec("tie_rule", SHARED, kind="choice", choices=TIE_RULES, note="AMB-F12"),
    OptionSpec("final_census", False, note="§5.4 FINAL"),
)


# ---- the state ---------------------------------------------------------------

@record
class State(Table):
    card_data: tuple[CardInfo, ...]                   # printed data that differs from the default
    pile: int = DECK_SIZE
    round: int = 0
    turn: int = 0
    hands: tuple[tuple[str, int], ...] = ()           # best effort (§5.3)
    villages: tuple[tuple[str, tuple[str, ...]], ...] = ()
    decrees: tuple[tuple[str, str | None], ...] = ()
    discard: frozenset[str] = frozenset()             # face-up discards, by id
    discard_count: int = 0                            # face-down discards, counted
    chief_power_used: frozenset[str] = frozenset()    # AMB-F9: per physical card
    revealed: tuple[tuple[str, str | None], ...] = ()  # this turn's reveals so far; None = no card
    queue: tuple[tuple[tuple[str, str], ...], ...] = ()  # resolution: groups of (seat, card) still to run
    step: str | None = None                           # the resolution step running: a card type
    card: str | None = None                           # the card whose power or effect runs
    target: str | None = None                         # the opponent a structured effect chose
    moving: str | None = None                         # report loop: the tapped card
    place: str | None = None                          # report loop: a chosen destination or source
    moves: int = 0                                    # report loop: moves reported so far
    pile_changed: bool = False                        # a reported effect touched the pile
    census: tuple[str, ...] = ()                      # the cards tapped in the running census
    adjust: tuple[tuple[str, int], ...] = ()          # manual Decrees, entered at the end
    asking: tuple[str, str] | None = None             # LEARN: (card, detail) the table is asked for
    learned: tuple[tuple[str, str, int | str], ...] = ()  # (card, detail, value) learned this game


# ---- helpers: card data ------------------------------------------------------

def info(state: State, card: str) -> CardInfo:
    for entry in state.card_data:
        if entry.card == card:
            return entry
    return default_info(card)


def effect_mode(state: State) -> str:
    """The mode of the power or effect running now."""
    effect = info(state, given(state.card)).effect
    return effect.mode if effect else MANUAL


def people_of(state: State, card: str) -> str | None:
    return people_of_id(card) or info(state, card).people


def flag(state: State, key: str) -> object:
    return option(state.options, key)


def label(card: str) -> Msg:
    """A card's name on screen: "Bloup", "Faar Chief", "Decree 2", "Action 7"."""
    kind, number = type_of(card), card.partition("#")[2]
    if kind in (FLOUK, CHIEF):
        return msg(f"fl.card.{kind}", people=msg(f"fl.people.{people_of_id(card)}"))
    return msg(f"fl.card.{kind}", n=number)


def place_label(place: str) -> Msg:
    """`village:Ann` -> "Ann's village"; `pile` -> "Pile"."""
    kind, _, seat = place.partition(":")
    return msg(f"fl.place.{kind}", name=seat)


# ---- helpers: seats ----------------------------------------------------------

def player_limits(options: Options) -> tuple[int, int]:
    """AMB-F1: 3-5 by default; 2 and 6 with the options."""
    return option_of(options, "min_players", int), option_of(options, "max_players", int)


def lead(state: State) -> str:
    """§5.3: the lead seat rotates each round."""
    return state.seats[(max(state.round, 1) - 1) % len(state.seats)]


def distance_from_lead(state: State, seat: str) -> int:
    return clockwise_from(state.seats, lead(state)).index(seat)


def village(state: State, seat: str) -> tuple[str, ...]:
    return of(state.villages, seat)


def hand(state: State, seat: str) -> int:
    return of(state.hands, seat)


def decree(state: State, seat: str) -> str | None:
    return of(state.decrees, seat)


def has_member(state: State, seat: str, people: str | None) -> bool:
    """§5.4: some village card has this people; a Chief counts too (AMB-F4 option)."""
    chiefs = flag(state, "chief_counts_as_member")
    return any(people_of_id(c) == people and (chiefs or type_of(c) == FLOUK)
               for c in village(state, seat))


# ---- helpers: zones ----------------------------------------------------------

def where(state: State, card: str) -> str | None:
    """`village:<seat>`, `decree:<seat>`, `discard`, `pending`, or None for a hidden card."""
    for seat, cards in state.villages:
        if card in cards:
            return f"village:{seat}"
    for seat, slot in state.decrees:
        if slot == card:
            return f"decree:{seat}"
    if card in state.discard:
        return DISCARD
    if card in pending(state):
        return "pending"
    return None


def pending(state: State) -> tuple[str, ...]:
    """Cards revealed this turn that have not resolved yet."""
    return tuple(c for _, c in state.revealed if c) + tuple(c for g in state.queue for _, c in g)


def take(state: State, card: str) -> State:
    """The state with a tracked card lifted out of its zone (it must be placed again)."""
    place = where(state, card)
    if place == DISCARD:
        return replace(state, discard=state.discard - {card})
    kind, _, seat = (place or "").partition(":")
    if kind == "village":
        rest = tuple(c for c in village(state, seat) if c != card)
        return replace(state, villages=with_value(state.villages, seat, rest))
    if kind == "decree":
        return replace(state, decrees=with_value(state.decrees, seat, None))
    return state


def put(state: State, card: str, place: str) -> State:
    """Place a card that is in no zone: `village:<seat>`, `decree:<seat>`, `discard`,
    `hand:<seat>` or `pile` (the last two only count it)."""
    kind, _, seat = place.partition(":")
    if kind == "village":
        return replace(state, villages=with_value(state.villages, seat,
                                                                village(state, seat) + (card,)))
    if kind == "decree":
        return replace(state, decrees=with_value(state.decrees, seat, card))
    if kind == DISCARD:
        return replace(state, discard=state.discard | {card})
    return add_hidden(state, place, 1)


def add_hidden(state: State, place: str, n: int) -> State:
    """Change a hidden count: `pile`, `discard` (face down) or `hand:<seat>`."""
    if place == PILE:
        return replace(state, pile=state.pile + n, pile_changed=True)
    if place == DISCARD:
        return replace(state, discard_count=state.discard_count + n)
    return replace(state, hands=add(state.hands, place.partition(":")[2], n))


def hidden_count(state: State, place: str) -> int:
    if place == PILE:
        return state.pile
    if place == DISCARD:
        return state.discard_count
    return hand(state, place.partition(":")[2])


def hidden_places(state: State) -> tuple[str, ...]:
    return (PILE,) + tuple(f"hand:{s}" for s in state.seats) + (DISCARD,)
