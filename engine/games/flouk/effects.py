"""Chief powers and Action effects: structured ones driven by
prompts, and the report loop for everything applied by hand.

Every handler here ends either waiting for the table (a prompt phase) or in
RESOLVE, which tells the rules to go on with the resolution queue.
"""
from __future__ import annotations

from tabletop_kit import E_ILLEGAL, E_NOT_ELIGIBLE, E_NOT_EXPECTED, Rejected, given, msg, replace

from .cards import CHIEF, FLOUK, MANUAL, Effect, people_of_id, type_of
from .state import (
    DISCARD,
    EFFECT_CARD,
    EFFECT_TARGET,
    FACE_DOWN_FROM,
    FACE_DOWN_TO,
    PILE,
    REPORT,
    REPORT_DEST,
    REPORT_FROM,
    RESOLVE,
    State,
    add_hidden,
    hand,
    hidden_count,
    hidden_places,
    info,
    label,
    place_label,
    put,
    take,
    village,
    where,
)

# A report loop takes at most this many moves: real effects move a few cards,
# and the bound keeps every report finite.
MAX_REPORT_MOVES = 6
SKIP, FACE_DOWN = "skip", "face_down"


def effect_of(state: State) -> Effect:
    return info(state, given(state.card)).effect or Effect()


def finish(state: State, effects: tuple):
    """The power or effect is over: back to the resolution queue."""
    return replace(state, phase=RESOLVE, current=None, card=None, target=None,
                   moving=None, place=None), effects


def run_effect(state: State, seat: str, card: str, effects: tuple):
    """Start `card`'s power or effect for `seat`."""
    state = replace(state, current=seat, card=card, target=None)
    effect = effect_of(state)
    if effect.mode == MANUAL:
        text = msg("fl.by_hand_text", card=label(card), text=effect.text) if effect.text else \
            msg("fl.by_hand", card=label(card))
        return replace(state, phase=REPORT, moves=0), effects + (text,)
    if effect.mode == "draw_from_pile":
        n = min(effect.n or 0, state.pile)
        state = add_hidden(add_hidden(state, PILE, -n), f"hand:{seat}", n)
        return finish(state, effects + (msg("fl.draw", name=seat, n=n),))
    if effect.mode == "none":
        return finish(state, effects + (msg("fl.nothing", card=label(card)),))
    if effect.whose in ("any", "self") and not eligible_cards(state):
        return finish(state, effects + (msg("fl.no_target"),))
    if effect.whose in ("any", "self"):
        return replace(state, phase=EFFECT_CARD), effects
    if not targets(state):
        return finish(state, effects + (msg("fl.no_target"),))
    return replace(state, phase=EFFECT_TARGET), effects


# ---- structured effects -------------------------------------------------------------

def source_seats(state: State) -> tuple[str, ...]:
    """The villages a move or discard may pick from."""
    effect = effect_of(state)
    if effect.whose == "self":
        return (state.to_play,)
    if state.target is not None:
        return (state.target,)
    return tuple(s for s in state.seats if s != state.current)


def matches(card: str, effect: Effect) -> bool:
    return ((effect.people is None or people_of_id(card) == effect.people)
            and (effect.kind is None or type_of(card) == effect.kind))


def eligible_cards(state: State) -> tuple[str, ...]:
    effect = effect_of(state)
    return tuple(c for s in source_seats(state) for c in village(state, s) if matches(c, effect))


def targets(state: State) -> tuple[str, ...]:
    """The opponents the effect can be used on: a matching village card, or a card in hand."""
    effect = effect_of(state)
    others = tuple(s for s in state.seats if s != state.current)
    if effect.mode == "steal_from_hand":
        return tuple(s for s in others if hand(state, s) > 0)
    return tuple(s for s in others if any(matches(c, effect) for c in village(state, s)))


def choose_target(state: State, key: str):
    if key == SKIP:
        return finish(state, (msg("fl.skipped"),))
    if key not in targets(state):
        return Rejected(E_NOT_ELIGIBLE, msg("fl.not_a_target"))
    effect = effect_of(state)
    if effect.mode == "steal_from_hand":
        n = min(effect.n or 0, hand(state, key))
        state = add_hidden(add_hidden(state, f"hand:{key}", -n), f"hand:{state.current}", n)
        return finish(state, (msg("fl.steal", name=state.current, victim=key, n=n),))
    return replace(state, phase=EFFECT_CARD, target=key), ()


def pick_card(state: State, card: str):
    """EFFECT_CARD: the village card the move or discard takes."""
    effect = effect_of(state)
    place = where(state, card) or ""
    if place.partition(":")[2] not in source_seats(state) or not place.startswith("village:"):
        return Rejected(E_NOT_ELIGIBLE, msg("fl.pick_from", seats=source_seats(state)))
    if not matches(card, effect):
        return Rejected(E_NOT_ELIGIBLE, msg("fl.wrong_kind", card=label(card)))
    state = take(state, card)
    if effect.mode == "move_village_card":
        state = put(state, card, f"village:{state.current}")
        to = place_label(f"village:{state.current}")
        return finish(state, (msg("fl.moved", card=label(card), to=to),))
    return finish(put(state, card, DISCARD), (msg("fl.discarded", card=label(card)),))


def effect_choose(state: State, key: str):
    if key == SKIP:
        return finish(state, (msg("fl.skipped"),))
    return Rejected(E_NOT_EXPECTED, msg("fl.pick_from", seats=source_seats(state)))


def effect_back(state: State):
    """BACK from the card to the choice of opponent, where there was one."""
    if effect_of(state).whose != "choose_opponent":
        return Rejected(E_NOT_EXPECTED, msg("fl.pick_from", seats=source_seats(state)))
    return replace(state, phase=EFFECT_TARGET, target=None), ()


# ---- the report loop (§5.1 "Unknown or manual effect") ------------------------------

def report_tap(state: State, card: str):
    """A card that changed place; its destination comes next."""
    if state.moves >= MAX_REPORT_MOVES:
        return Rejected(E_ILLEGAL, msg("fl.report_full", n=MAX_REPORT_MOVES))
    if where(state, card) == "pending":
        return Rejected(E_ILLEGAL, msg("fl.not_resolved"))
    return replace(state, phase=REPORT_DEST, moving=card), ()


def report_choose(state: State, key: str):
    if key != FACE_DOWN or state.moves >= MAX_REPORT_MOVES:
        return Rejected(E_NOT_EXPECTED, msg("fl.report_hint"))
    return replace(state, phase=FACE_DOWN_FROM), ()


def destinations(state: State) -> tuple[str, ...]:
    """Where the tapped card can go: a village (Flouks only), the discard, a hand, the pile."""
    card = given(state.moving)
    here = where(state, card)
    villages = tuple(f"village:{s}" for s in state.seats) if type_of(card) in (FLOUK, CHIEF) else ()
    places = villages + (DISCARD,) + tuple(f"hand:{s}" for s in state.seats) + (PILE,)
    return tuple(p for p in places if p != here)


def sources(state: State) -> tuple[str, ...]:
    """Hidden places a card can have come from (REPORT_FROM, FACE_DOWN_FROM)."""
    return tuple(p for p in hidden_places(state) if p != state.place and hidden_count(state, p) > 0)


def choose_destination(state: State, key: str):
    if key not in destinations(state):
        return Rejected(E_NOT_EXPECTED, msg("fl.choose_destination"))
    card = given(state.moving)
    if where(state, card) is None:     # from a hand or the pile: ask which
        return replace(state, phase=REPORT_FROM, place=key), ()
    return _moved(put(take(state, card), card, key), card, key)


def choose_source(state: State, key: str):
    if key not in sources(state):
        return Rejected(E_NOT_EXPECTED, msg("fl.choose_source"))
    card, dest = given(state.moving), given(state.place)
    return _moved(put(add_hidden(state, key, -1), card, dest), card, dest)


def _moved(state: State, card: str, dest: str):
    state = replace(state, phase=REPORT, moving=None, place=None, moves=state.moves + 1)
    return state, (msg("fl.moved", card=label(card), to=place_label(dest)),)


def face_down_from(state: State, key: str):
    if key not in sources(state):
        return Rejected(E_NOT_EXPECTED, msg("fl.choose_source"))
    return replace(state, phase=FACE_DOWN_TO, place=key), ()


def face_down_destinations(state: State) -> tuple[str, ...]:
    return tuple(p for p in hidden_places(state) if p != state.place)


def face_down_to(state: State, key: str):
    if key not in face_down_destinations(state):
        return Rejected(E_NOT_EXPECTED, msg("fl.choose_destination"))
    state = add_hidden(add_hidden(state, given(state.place), -1), key, 1)
    state = replace(state, phase=REPORT, place=None, moves=state.moves + 1)
    return state, (msg("fl.face_down_moved", to=place_label(key)),)


def report_back(state: State):
    """BACK leaves a half-reported move: nothing has changed yet."""
    return replace(state, phase=REPORT, moving=None, place=None), ()


def report_done(state: State):
    return finish(state, (msg("fl.report_closed", n=state.moves),))

