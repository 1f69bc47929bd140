"""Learning a card's printed details at the table.

The shipped card file does not say which Actions belong to a people, nor any
white number. When a step of the resolution needs one of these, the device
asks the table once: an Action's people just before the Action resolves, and
the white numbers of a Chief or Action step that holds two or more cards,
before the step is ordered. The answer is an ordinary `Choose` event, so the
journal keeps it and undo and resume replay it; the state carries it in
`card_data` (the rules read it from then on) and in `learned` (the device
keeps it in the café's card data for the next games).
"""
from __future__ import annotations

from tabletop_kit import E_NOT_EXPECTED, Choose, Option, Prompt, Rejected, given, msg, replace

from .cards import (
    ACTION,
    CHIEF,
    NEUTRAL,
    PEOPLE,
    PEOPLES,
    UNKNOWN,
    WHITE,
    WHITE_RANGE,
    detail_problem,
    with_detail,
)
from .order import ordered
from .state import LEARN, RESOLVE, State, info, label, type_of

PEOPLE_KEYS = (NEUTRAL,) + PEOPLES
WHITE_KEYS = {str(n): n for n in WHITE_RANGE}   # exactly the menu's keys: no "07", no other digits


def missing(state: State) -> tuple[str, str, str] | None:
    """(seat, card, detail) the head of the resolution queue waits for, or None."""
    seat, card = state.queue[0][0]
    kind = type_of(card)
    if kind not in (CHIEF, ACTION):
        return None
    if state.step != kind:                  # the step begins: its order needs the white numbers
        step = [entry for group in state.queue for entry in group if type_of(entry[1]) == kind]
        if len(step) >= 2:
            for owner, other in step:
                if info(state, other).white is None:
                    return owner, other, WHITE
    if len(state.queue[0]) == 1 and kind == ACTION and info(state, card).people == UNKNOWN:
        return seat, card, PEOPLE
    return None


def ask(state: State, seat: str, card: str, detail: str) -> State:
    return replace(state, phase=LEARN, asking=(card, detail), current=seat)


def answer(state: State, key: str):
    """The table's answer: `neutral` or a people, or a white number; applied at once."""
    card, detail = given(state.asking)
    value: int | str | None = WHITE_KEYS.get(key) if detail == WHITE else key
    if value is None or detail_problem(card, detail, value):
        return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))
    card_data = tuple(c for c in state.card_data if c.card != card)
    state = replace(
        state, phase=RESOLVE, asking=None, current=None,
        card_data=card_data + (with_detail(info(state, card), detail, value),),
        learned=state.learned + ((card, detail, value),))
    if detail == WHITE:
        state = reorder(state)
    return state, (msg(f"fl.learned.{detail}", card=label(card), value=shown(detail, value)),)


def event_words(state: State, event):
    """The undo question's words for an answer about a card ("Action 12: Bloup"): the table
    told what is printed on it, the player whose card it is did not choose."""
    if state.phase != LEARN or not isinstance(event, Choose) or state.asking is None:
        return None
    card, detail = given(state.asking)
    value = WHITE_KEYS.get(event.option) if detail == WHITE else event.option
    if value is None:
        return None
    return msg(f"fl.undo.{detail}", card=label(card), value=shown(detail, value))


def people_name(people: str):
    """"Mouta", or "Flouk (neutral)" for an Action of no people."""
    return msg("fl.neutral") if people == NEUTRAL else msg(f"fl.people.{people}")


def shown(detail: str, value: int | str):
    return people_name(str(value)) if detail == PEOPLE else str(value)


def reorder(state: State) -> State:
    """The step at the head of the queue, ordered again now that a white number is known."""
    kind = type_of(state.queue[0][0][1])
    step = [entry for group in state.queue for entry in group if type_of(entry[1]) == kind]
    rest = tuple(g for g in state.queue if type_of(g[0][1]) != kind)
    return replace(state, queue=tuple(ordered(state, step)) + rest)


def prompt(state: State) -> Prompt:
    card, detail = given(state.asking)
    if detail == PEOPLE:
        options = tuple(Option(p, people_name(p)) for p in PEOPLE_KEYS)
    else:
        options = tuple(Option(str(n), msg("fl.option.white", n=n)) for n in WHITE_RANGE)
    return Prompt("learn", msg(f"fl.prompt.learn.{detail}", card=label(card), name=state.current),
                  options)


def learned_details(state: State) -> dict[str, dict[str, int | str]]:
    """What this game learned, card by card, for the tally and the café's card data."""
    found: dict[str, dict[str, int | str]] = {}
    for card, detail, value in state.learned:
        found.setdefault(card, {})[detail] = value
    return found
