"""Tamalou: keep the lowest total in a square of four face-down cards.

On a turn a player draws (then keeps or plays the card; a played card may
carry a power) or takes the top discard. Between turns anyone may snap a card
matching the top. Tamalou! gives every opponent one last turn; then each
square is revealed by taps and scored. The device sees the discard and the
reveal; it infers how many cards each square and the pile hold.

Metadata and state: state.py. Card facts and scoring: scoring.py.
What the table sees: prompts.py.
"""
from __future__ import annotations

from tabletop_kit import (
    E_ILLEGAL,
    E_IN_PLAY,
    E_NOT_ELIGIBLE,
    E_NOT_EXPECTED,
    E_OUT_OF_PLAY,
    E_SAME_CARD,
    Cancel,
    Choose,
    Confirm,
    GameConfig,
    GameSpec,
    Look,
    PhaseTable,
    Rejected,
    Tap,
    add,
    clockwise_from,
    given,
    kind_of,
    msg,
    next_seat,
    of,
    on_button,
    on_card,
    on_option,
    option,
    option_of,
    per_seat,
    replace,
)

from . import texts_en, texts_fr
from .prompts import INSTRUCTIONS, badge, event_words, hint, prompt, reminder, result, round_headline, tally
from .scoring import label, match_over, round_winners, snap_matches
from .state import (
    CALL,
    COMPONENTS,
    DEAL,
    DECK_SIZE,
    DRAWN,
    GIVE_UP,
    HAND,
    HOLDING,
    JOKERS,
    KEEP,
    LAST_SNAPS,
    MISMATCH,
    OPENING,
    OPTIONS,
    OVER,
    PENALTY_WHO,
    PLAYED,
    POWER,
    REVEAL,
    SNAP_WHO,
    TURN,
    TURN_KEYS,
    State,
    can_draw,
    card_name,
    count_of,
    drawn_actions,
    holders,
    match_mode,
    round_scores,
    snap_phase,
    swap_targets,
    top,
    turn_actions,
    usable_power,
)

# ---- setup (§4.2) ------------------------------------------------------------

def new_round(state: State, first: str, number: int) -> State:
    """Just dealt: 4 cards each, the rest in the pile; the opening discard is tapped next."""
    return replace(state, phase=OPENING, first=first, current=first, round=number,
                   pile=DECK_SIZE - HAND * len(state.seats), discard=(),
                   counts=per_seat(state.seats, HAND), caller=None, final_queue=(), played=None,
                   target=None, snapped=None, revealed=(), tapping=())


def initial(config: GameConfig) -> State:
    seats, first = config.players, config.first or config.players[0]
    blank = State(seq=0, phase=OPENING, options=config.options, seats=seats, first=first,
                  current=first, pile=0, discard=(), counts=(), totals=per_seat(seats, 0))
    return new_round(blank, first, 1)


def open_discard(state: State, card: str):
    """§4.2 step 3: the opening discard's power never applies (AMB-TA8)."""
    state = replace(state, phase=TURN, discard=(card,), pile=state.pile - 1, current=state.first)
    return state, (msg("tm.opening", card=label(card)),)


# ---- phase: the turn (§4.4) --------------------------------------------------

def choose_action(state: State, key: str):
    if key not in TURN_KEYS:
        return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))
    if key not in turn_actions(state):
        return unavailable(state, key)
    if key == "draw":
        state, effects = draw_card(state)
        return replace(state, phase=DRAWN), effects
    if key == "take_discard":
        return replace(state, phase=GIVE_UP), ()
    if key == "tamalou":
        return call(state)
    return replace(state, phase=PENALTY_WHO), ()


def unavailable(state: State, key: str) -> Rejected:
    if key in ("draw", "penalty"):
        return Rejected(E_ILLEGAL, msg("tm.pile_empty"))
    if key == "take_discard":
        return Rejected(E_NOT_ELIGIBLE, msg("tm.no_cards_to_swap"))
    if state.caller is not None:
        return Rejected(E_ILLEGAL, msg("tm.already_called"))
    return Rejected(E_ILLEGAL, msg("tm.call_after_turn"))


def draw_card(state: State):
    """One card off the pile. AMB-TA16: an empty pile is refilled from the discard but its top."""
    if state.pile > 0:
        return replace(state, pile=state.pile - 1), ()
    state = replace(state, pile=len(state.discard) - 2, discard=state.discard[-1:])
    return state, (msg("tm.reshuffle"),)


def check_discardable(state: State, card: str) -> Rejected | None:
    if card == top(state):
        return Rejected(E_IN_PLAY, msg("tm.already_top"))
    if card in state.discard:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    return None


def push(state: State, card: str) -> State:
    return replace(state, discard=state.discard + (card,))


def give_up(state: State, card: str):
    """Take discard: the old top goes into the square unseen; the card it replaces is tapped."""
    if card == top(state):
        return Rejected(E_SAME_CARD, msg("tm.card_you_took"))
    problem = check_discardable(state, card)
    if problem:
        return problem
    state = replace(state, discard=state.discard[:-1] + (card,))
    return end_turn(state, (msg("tm.discarded", card=label(card)),))


def choose_drawn(state: State, key: str):
    if key not in ("keep", "play"):
        return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))
    if key not in drawn_actions(state):
        return Rejected(E_NOT_ELIGIBLE, msg("tm.only_play"))
    return replace(state, phase=KEEP if key == "keep" else PLAYED), ()


def keep(state: State, card: str):
    """Keep: the drawn card goes into the square, the replaced card onto the discard. No power."""
    problem = check_discardable(state, card)
    if problem:
        return problem
    return end_turn(push(state, card), (msg("tm.discarded", card=label(card)),))


def play_drawn(state: State, card: str):
    """Play: the drawn card onto the discard; its power, if any, comes next (AMB-TA6, AMB-TA8)."""
    problem = check_discardable(state, card)
    if problem:
        return problem
    state = push(state, card)
    kind = usable_power(state, card)
    if kind is None:
        return end_turn(state, (msg("tm.no_effect", card=label(card)),))
    return replace(state, phase=POWER, played=card, target=None), ()


def name_target(state: State, key: str):
    """The optional opponent menu of a swap power: for the log only."""
    if key in swap_targets(state):
        return replace(state, target=key), (msg("tm.target", name=key),)
    if key in state.seats and swap_targets(state):
        return Rejected(E_NOT_ELIGIBLE, msg("tm.not_a_target", name=key))
    return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))


def power_done(state: State):
    return end_turn(state, (msg("tm.power_done"),))


def end_turn(state: State, effects: tuple):
    """§4.4 END_TURN; with call_timing=after_own_turn the player may call now (AMB-TA10)."""
    state = replace(state, played=None, target=None)
    if state.caller is None and option(state.options, "call_timing") == "after_own_turn":
        return replace(state, phase=CALL), effects
    return pass_turn(state, effects)


def pass_turn(state: State, effects: tuple = ()):
    """The next seat; in the last round the next in the final queue, then the reveal."""
    if state.caller is None:
        return replace(state, phase=TURN, current=next_seat(state.seats, state.to_play)), effects
    queue = tuple(seat for seat in state.final_queue if seat != state.current)
    if not queue:
        if option(state.options, "last_snap_s") == 0:
            return start_reveal(replace(state, final_queue=()), effects)
        return replace(state, phase=LAST_SNAPS, final_queue=()), effects + (msg("tm.last_snaps"),)
    return replace(state, phase=TURN, final_queue=queue, current=queue[0]), effects


def start_reveal(state: State, effects: tuple = ()):
    """§4.4 REVEAL, after the last snaps: each square in seat order."""
    state = replace(state, phase=REVEAL, current=state.seats[0], tapping=())
    return state, effects + (msg("tm.reveal_now"),)


def call(state: State):
    """Tamalou!: each opponent gets one last turn, clockwise from the caller's left (AMB-TA11).

    AMB-TA12: the claim is not checked now; AMB-TA15: an empty square may call too.
    """
    queue = clockwise_from(state.seats, state.to_play)[1:]
    state = replace(state, phase=TURN, caller=state.current, final_queue=queue, current=queue[0])
    return state, (msg("tm.called", name=state.caller),)


def answer_call(state: State, key: str):
    if key == "yes":
        return call(state)
    if key == "no":
        return pass_turn(state)
    return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))


# ---- phase: snaps and penalties (§4.4, AMB-TA1–TA5, AMB-TA9) -----------------

def snap(state: State, card: str):
    """A tap nobody asked for: checked at once, then "Who discarded?"."""
    problem = check_discardable(state, card)
    if problem:
        return problem
    if not holders(state):
        return Rejected(E_NOT_ELIGIBLE, msg("tm.nobody_has_cards"))
    return replace(state, phase=SNAP_WHO, snapped=card), ()


def judge_snap(state: State, who: str):
    """AMB-TA4: only your own cards, so only a player with cards can have snapped (AMB-TA15)."""
    if who not in holders(state):
        if who in state.seats:
            return Rejected(E_NOT_ELIGIBLE, msg("tm.has_no_cards", name=who))
        return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))
    card, state = given(state.snapped), replace(state, phase=snap_phase(state), snapped=None)
    if snap_matches(card, given(top(state)), option_of(state.options, "snap_match", str)):
        state = replace(push(state, card), counts=add(state.counts, who, -1))
        return state, (msg("tm.good_snap", name=who, n=count_of(state, who)),)
    if not can_draw(state):
        return state, (msg("tm.wrong_snap_no_card", name=who),)
    return penalise(state, who, msg("tm.wrong_snap", name=who))     # AMB-TA2: back in place, +1 card


def give_penalty(state: State, who: str):
    """AMB-TA9: the table decides; the device only counts the card."""
    if who not in state.seats:
        return Rejected(E_NOT_EXPECTED, msg("core.not_a_choice"))
    return penalise(replace(state, phase=TURN), who, msg("tm.penalty", name=who))


def penalise(state: State, who: str, text):
    state, effects = draw_card(state)
    return replace(state, counts=add(state.counts, who, 1)), effects + (text,)


# ---- phase: reveal and scoring (§4.4 REVEAL, §4.5) ---------------------------

def reveal_tap(state: State, card: str):
    if card in state.discard:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    if card in state.tapping or any(card in cards for _, cards in state.revealed):
        return Rejected(E_SAME_CARD, msg("core.same_card"))
    return replace(state, tapping=state.tapping + (card,)), ()


def reveal_done(state: State):
    """A count that differs from the inferred one asks first; nothing is committed until then."""
    if len(state.tapping) != count_of(state, state.to_play):
        return replace(state, phase=MISMATCH), ()
    return commit_reveal(state)


def commit_reveal(state: State):
    revealed = state.revealed + ((state.to_play, state.tapping),)
    state = replace(state, revealed=revealed, tapping=())
    effects = (msg("tm.scored", name=state.to_play, n=of(round_scores(state), state.to_play)),)
    if len(revealed) < len(state.seats):
        return replace(state, phase=REVEAL, current=state.seats[len(revealed)]), effects
    return end_round(state, effects)


def end_round(state: State, effects: tuple):
    """§4.5: add the round to the totals; a caller who did not win pays caller_fail_penalty."""
    scores = round_scores(state)
    added = scores
    winners = round_winners(scores, given(state.caller), option_of(state.options, "all_must_be_le5", bool))
    if winners != (state.caller,):
        added = add(scores, given(state.caller), option_of(state.options, "caller_fail_penalty", int))
    totals = tuple((seat, total + of(added, seat)) for seat, total in state.totals)
    state = replace(state, totals=totals, history=state.history + (added,))
    if match_over(option_of(state.options, "match", str), state.round, totals):
        state = replace(state, phase=OVER)
        final = (given(result(state)).headline,) if match_mode(state) else ()
        return state, effects + (round_headline(state),) + final
    return replace(state, phase=DEAL), effects + (round_headline(state),)


def next_round(state: State):
    """§4.5: the first player moves one seat clockwise each round."""
    return new_round(state, next_seat(state.seats, state.first), state.round + 1), ()


# ---- the phase table ---------------------------------------------------------

def back_to(phase: str):
    return lambda state: (replace(state, phase=phase, snapped=None), ())


def back_from_snap(state: State):
    return replace(state, phase=snap_phase(state), snapped=None), ()


def tapped(handler):
    """A tap handler; no phase takes the jokers (TM-01)."""
    def run(state: State, card: str):
        if kind_of(card) == "joker":
            return Rejected(E_NOT_EXPECTED, msg("tm.jokers_not_used"))
        return handler(state, card)
    return on_card(run)


TABLE: PhaseTable[State] = PhaseTable({
    OPENING: {Tap: tapped(open_discard)},
    TURN: {Tap: tapped(snap), Choose: on_option(choose_action)},     # a tap nobody asked for is a snap
    GIVE_UP: {Tap: tapped(give_up), Cancel: on_button(back_to(TURN))},
    DRAWN: {Choose: on_option(choose_drawn)},                         # the draw is physical: no going back
    KEEP: {Tap: tapped(keep), Cancel: on_button(back_to(DRAWN))},
    PLAYED: {Tap: tapped(play_drawn), Cancel: on_button(back_to(DRAWN))},
    POWER: {Choose: on_option(name_target), Confirm: on_button(power_done)},
    SNAP_WHO: {Choose: on_option(judge_snap), Cancel: on_button(back_from_snap)},
    PENALTY_WHO: {Choose: on_option(give_penalty), Cancel: on_button(back_to(TURN))},
    CALL: {Choose: on_option(answer_call)},
    LAST_SNAPS: {Tap: tapped(snap), Confirm: on_button(start_reveal)},   # a card may go at any time
    REVEAL: {Tap: tapped(reveal_tap), Confirm: on_button(reveal_done)},
    MISMATCH: {Confirm: on_button(commit_reveal), Cancel: on_button(back_to(REVEAL))},
    DEAL: {Confirm: on_button(next_round)},
    OVER: {},
})


# ---- invariants --------------------------------------------------------------

def invariants(state: State) -> list[str]:
    """52 cards across pile, discard, squares and a drawn card in hand; totals = sum of rounds."""
    # every candidate event's state is checked (legal_events): each collection is walked once
    problems = []
    held = 1 if state.phase in HOLDING else 0
    counts = [n for _, n in state.counts]
    squares = sum(counts)
    if state.pile + len(state.discard) + squares + held != DECK_SIZE:
        problems.append(f"cards not conserved: pile {state.pile}, discard {len(state.discard)}, "
                        f"squares {squares}, in hand {held}")
    if state.pile < 0 or min(counts) < 0:
        problems.append("a negative count")
    discard = set(state.discard)
    if len(discard) != len(state.discard):
        problems.append("a card twice in the discard")
    if (state.phase == OPENING) != (not state.discard):
        problems.append("the discard is empty after the opening, or not before it")
    rounds = [[of(added, seat) for seat in state.seats] for added in state.history]
    sums = tuple(zip(state.seats, map(sum, zip(*rounds)) if rounds else [0] * len(state.seats)))
    finished = state.round if state.phase in (DEAL, OVER) else state.round - 1
    if sums != state.totals or len(state.history) != finished:
        problems.append("totals are not the sum of the finished rounds")
    shown = [card for _, cards in state.revealed for card in cards] + list(state.tapping)
    seen = set(shown)
    if len(seen) != len(shown) or not seen.isdisjoint(discard):
        problems.append("a revealed card twice, or from the discard")
    return problems


# ---- registration ------------------------------------------------------------

GAME = GameSpec(
    id="tamalou", title="Tamalou", deck="tamalou", min_players=2, max_players=6,
    components=COMPONENTS, options=OPTIONS, state_type=State, initial=initial,
    allowed=TABLE.allowed, hint=hint, play=TABLE.play, prompt=prompt, tally=tally,
    result=result, invariants=invariants, extra_cards=JOKERS, reminder=reminder,
    max_events=4000, order=4, instructions=INSTRUCTIONS, card_name=card_name, event_words=event_words,
    look=Look(name=msg("tm.name"), badge=badge, asks_first=msg("ui.first_player"),
              deal=msg("tm.deal"), lowest_wins=True),      # §4.5: the fewest points win
    home=__package__, texts={"en": texts_en.TEXT, "fr": texts_fr.TEXT},
)
