"""Flouk's population, Decrees and the end of the game.

`population` is both the live score and the final one: the village counted
under the owner's Decree in force. The end runs the optional census, then the
manual Decree entries (UP/DOWN = `plus`/`minus`, SELECT), then the result.
"""
from __future__ import annotations

from tabletop_kit import E_ILLEGAL, E_NOT_EXPECTED, E_SAME_CARD, Rejected, Result, add, given, msg, of, rank, replace

from .cards import ACTION, CHIEF, DECREE, FLOUK, MANUAL, Scoring, people_of_id, type_of
from .state import (
    ADJUST,
    CENSUS,
    DISCARD,
    OVER,
    PILE,
    State,
    add_hidden,
    decree,
    flag,
    hidden_count,
    info,
    put,
    take,
    village,
    where,
)

# ---- population (§5.4, AMB-F5, AMB-F14) ------------------------------------------

def scoring_of(state: State, seat: str) -> Scoring | None:
    """The active Decree's scoring; only the active Decree scores (AMB-F8)."""
    card = decree(state, seat)
    return info(state, card).scoring if card else None


def base_population(state: State, seat: str) -> int:
    """Normal Flouks and welcomed Chiefs count 1 each; Decrees and Actions never (AMB-F14)."""
    return sum(1 for c in village(state, seat) if type_of(c) in (FLOUK, CHIEF))


def population(state: State, seat: str) -> int:
    scoring = scoring_of(state, seat)
    pop = apply_scoring(state, village(state, seat), scoring) if scoring else base_population(state, seat)
    if scoring is not None and scoring.kind == MANUAL:
        pop += of(state.adjust, seat)
    return pop


def apply_scoring(state: State, cards: tuple[str, ...], scoring: Scoring) -> int:
    if scoring.kind == "people_multiplier":
        return sum(_weight(state, c, scoring) for c in cards)
    if scoring.kind == "flat_bonus":
        return len(cards) + (scoring.n or 0)
    if scoring.kind == "conditional" and scoring.then is not None and _holds(state, cards, scoring):
        return apply_scoring(state, cards, scoring.then)
    return len(cards)


def _weight(state: State, card: str, scoring: Scoring) -> int:
    """AMB-F5: a people Decree multiplies that people's Chiefs too (option)."""
    counts = type_of(card) == FLOUK or flag(state, "decree_applies_to_chiefs")
    return (scoring.factor or 0) if counts and people_of_id(card) == scoring.people else 1


def _holds(state: State, cards: tuple[str, ...], scoring: Scoring) -> bool:
    """A conditional Decree's test; a Chief is a member of its people (AMB-F4 option)."""
    chiefs = flag(state, "chief_counts_as_member")
    members = [people_of_id(c) for c in cards if chiefs or type_of(c) == FLOUK]
    if scoring.test == "distinct_peoples":
        return len(set(members)) >= (scoring.test_n or 0)
    return members.count(scoring.test_people) >= (scoring.test_n or 0)


def is_manual(state: State, seat: str) -> bool:
    scoring = scoring_of(state, seat)
    return scoring is not None and scoring.kind == MANUAL


# ---- the end ---------------------------------------------------------------------

def start_final(state: State, effects: tuple = ()):
    """FINAL: the census first if the table wants it (opt final_census), then the Decrees."""
    state = replace(state, revealed=(), queue=(), step=None, card=None)
    if flag(state, "final_census"):
        return replace(state, phase=CENSUS, current=state.seats[0], census=()), effects
    return next_adjust(state, None, effects)


def next_adjust(state: State, after: str | None, effects: tuple):
    """The next seat (in seat order) whose Decree is entered by hand, or the result."""
    start = 0 if after is None else state.seats.index(after) + 1
    for seat in state.seats[start:]:
        if is_manual(state, seat):
            return replace(state, phase=ADJUST, current=seat), effects
    state = replace(state, phase=OVER, current=None)
    return state, effects + (given(result(state)).headline,)


def adjust_done(state: State):
    """SELECT on a manual Decree screen: on to the next one."""
    return next_adjust(state, state.current, ())


def adjust(state: State, key: str):
    """UP/DOWN on the manual Decree screen: `plus` or `minus` one inhabitant."""
    if key not in ("plus", "minus"):
        return Rejected(E_NOT_EXPECTED, msg("fl.hint.adjust"))
    seat = state.to_play
    delta = 1 if key == "plus" else -1
    if population(state, seat) + delta < 0:
        return Rejected(E_ILLEGAL, msg("fl.not_below_zero"))
    return replace(state, adjust=add(state.adjust, seat, delta)), ()


def census_tap(state: State, card: str):
    """A card of the current player's village or their Decree, each once."""
    if type_of(card) == ACTION:
        return Rejected(E_ILLEGAL, msg("fl.census_no_actions"))
    if card in state.census:
        return Rejected(E_SAME_CARD, msg("core.same_card"))
    place = where(state, card) or ""
    owner = place.partition(":")[2]
    if owner and state.seats.index(owner) < state.seats.index(state.current):
        return Rejected(E_SAME_CARD, msg("fl.counted_for", name=owner))
    if type_of(card) == DECREE and any(type_of(c) == DECREE for c in state.census):
        return Rejected(E_ILLEGAL, msg("fl.one_decree"))
    return replace(state, census=state.census + (card,)), ()


def census_done(state: State):
    """The census counts (§5.4): untapped cards leave the village, tapped ones join it."""
    seat, tapped = state.to_play, state.census
    cards = [c for c in tapped if type_of(c) != DECREE]
    slip = [c for c in tapped if type_of(c) == DECREE]
    missing = [c for c in village(state, seat) if c not in cards]
    added = [c for c in cards if c not in village(state, seat)]
    old = decree(state, seat)
    new = slip[0] if slip else None
    for card in missing + ([old] if old and old != new else []):
        state = put(take(state, card), card, DISCARD)
    for card, place in [(c, f"village:{seat}") for c in added] + (
            [(new, f"decree:{seat}")] if new and new != old else []):
        state = put(_claim(state, card), card, place)
    changed = len(missing) + len(added) + (old != new)
    text = (msg("fl.census_differs", name=seat, plus=len(added), minus=len(missing))
            if changed else msg("fl.census_matches", name=seat))
    state = replace(state, census=())
    later = state.seats[state.seats.index(seat) + 1:]
    if later:
        return replace(state, current=later[0]), (text,)
    return next_adjust(state, None, (text,))


def _claim(state: State, card: str) -> State:
    """Lift a card out of its tracked zone, or out of a hidden count (face-down discards first)."""
    if where(state, card) is not None:
        return take(state, card)
    for place in (DISCARD, PILE) + tuple(f"hand:{s}" for s in state.seats):
        if hidden_count(state, place) > 0:
            return add_hidden(state, place, -1)
    return state


def result(state: State) -> Result | None:
    """The largest population wins; a tie gives co-winners (AMB-F12, opt tie_rule)."""
    if state.phase != OVER:
        return None
    ranking = rank(((s, population(state, s)) for s in state.seats), flag(state, "tie_rule"))
    if not ranking.winners:
        return Result((), msg("fl.no_winner", n=ranking.best))
    return Result(ranking.winners, msg("fl.winners", names=ranking.winners, n=ranking.best))
