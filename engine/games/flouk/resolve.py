"""Flouk's RESOLVE: the fixed queue Decrees, Flouks, Chiefs, Actions.

The queue is built once all reveals are in. Each entry is a group of
(seat, card); a group of several is a tie the players order themselves
(opt white_tie=prompt). `advance` runs entries until one needs the table,
then the turn or the round ends, all inside the same input event.
"""
from __future__ import annotations

from tabletop_kit import E_NOT_ELIGIBLE, Rejected, msg, per_seat, replace

from .cards import ACTION, CHIEF, DECREE, FLOUK, NEUTRAL
from .effects import run_effect
from .learning import ask, missing
from .order import ordered
from .state import (
    CARDS_DEALT,
    DEAL,
    DISCARD,
    LAST,
    ORDER,
    PILE_CHECK,
    RESOLVE,
    REVEAL,
    State,
    decree,
    flag,
    has_member,
    info,
    label,
    people_of,
    put,
    type_of,
)

STEPS = (DECREE, FLOUK, CHIEF, ACTION)


def start(state: State, effects: tuple):
    """All reveals are in: queue them by step, then run the queue."""
    revealed = [(seat, card) for seat, card in state.revealed if card]
    groups: list[tuple[tuple[str, str], ...]] = []
    for step in STEPS:
        entries = [e for e in revealed if type_of(e[1]) == step]
        groups += ordered(state, entries) if step in (CHIEF, ACTION) else [(e,) for e in entries]
    state = replace(state, phase=RESOLVE, revealed=(), queue=tuple(groups), step=None)
    return advance(state, effects)


def choose_first(state: State, seat: str):
    """ORDER: which of the tied cards resolves first."""
    group, rest = state.queue[0], state.queue[1:]
    chosen = [e for e in group if e[0] == seat]
    if not chosen:
        return Rejected(E_NOT_ELIGIBLE, msg("fl.not_tied"))
    others = tuple(e for e in group if e[0] != seat)
    state = replace(state, phase=RESOLVE, queue=(tuple(chosen),) + (others,) + rest)
    return advance(state, ())


def advance(state: State, effects: tuple):
    """Run queue entries until one waits for the table; then end the turn."""
    while state.phase == RESOLVE and state.queue:
        needed = missing(state)
        if needed:
            return ask(state, *needed), effects
        group = state.queue[0]
        if len(group) > 1:
            return replace(state, phase=ORDER, current=None), effects
        seat, card = group[0]
        state = replace(state, queue=state.queue[1:])
        if state.step != type_of(card):
            state = replace(state, step=type_of(card))
            effects += (step_message(type_of(card)),)
        state, effects = RESOLVERS[type_of(card)](state, seat, card, effects)
    if state.phase == RESOLVE:
        return end_turn(state, effects)
    return state, effects


def step_message(step: str):
    """"Next: Chiefs"; the Flouks' step also says where they go, as nothing else will."""
    if step == FLOUK:
        return msg("fl.flouks_to_villages")
    return msg("fl.next_step", step=msg(f"fl.step.{step}"))


def resolve_decree(state: State, seat: str, card: str, effects: tuple):
    """AMB-F8: the new Decree always replaces the old one, which is discarded."""
    old = decree(state, seat)
    if old:
        state = put(state, old, DISCARD)
    state = put(state, card, f"decree:{seat}")
    scoring = info(state, card).scoring
    text = msg("fl.decree_text", name=seat, text=scoring.text) if scoring and scoring.text else \
        msg("fl.decree", name=seat, card=label(card))
    return state, effects + ((msg("fl.decree_replaced", card=label(old)),) if old else ()) + (text,)


def resolve_flouk(state: State, seat: str, card: str, effects: tuple):
    return put(state, card, f"village:{seat}"), effects


def resolve_chief(state: State, seat: str, card: str, effects: tuple):
    """The welcome is checked at the Chief's own step (AMB-F3); the power runs once per card (AMB-F9)."""
    if not has_member(state, seat, people_of(state, card)):
        return put(state, card, DISCARD), effects + (msg("fl.welcome_failed", name=seat, card=label(card)),)
    state = put(state, card, f"village:{seat}")
    effects += (msg("fl.welcomed", name=seat, card=label(card)),)
    if card in state.chief_power_used:
        return state, effects
    state = replace(state, chief_power_used=state.chief_power_used | {card})
    return run_effect(state, seat, card, effects)


def resolve_action(state: State, seat: str, card: str, effects: tuple):
    """AMB-F6: a people Action needs one of its people at the Action's own step."""
    people = people_of(state, card)
    state = put(state, card, DISCARD)
    if people != NEUTRAL and not has_member(state, seat, people):
        return state, effects + (msg("fl.no_people", people=msg(f"fl.people.{people}")),)
    return run_effect(state, seat, card, effects + (msg("fl.action_discard", card=label(card)),))


RESOLVERS = {DECREE: resolve_decree, FLOUK: resolve_flouk, CHIEF: resolve_chief, ACTION: resolve_action}


def end_turn(state: State, effects: tuple):
    """Next turn, or the round ends (AMB-F10: 3 turns, or until every hand holds at most 1)."""
    state = replace(state, step=None, current=None)
    if flag(state, "round_turns") == "fixed3":
        more = state.turn < 3
    else:
        more = any(n > 1 for _, n in state.hands)
    if more:
        return replace(state, phase=REVEAL, turn=state.turn + 1,
                       current=state.seats[0]), effects
    return end_round(state, effects)


def end_round(state: State, effects: tuple):
    """ROUND_END: every card still in hand is discarded; then the deal, or the end (AMB-F11)."""
    held = sum(n for _, n in state.hands)
    state = replace(state, discard_count=state.discard_count + held,
                    hands=per_seat(state.seats, 0))
    effects += (msg("fl.round_over", n=state.round),)
    if state.pile < CARDS_DEALT * len(state.seats):
        return replace(state, phase=LAST), effects
    return replace(state, phase=PILE_CHECK if state.pile_changed else DEAL), effects

