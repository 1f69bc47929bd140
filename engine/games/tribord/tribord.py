"""A tribord!, the betting variant of L'Auberge des pirates.

Each round two cards start a common hand in the centre and everyone antes 1.
In turn from the Button, each pirate still open pays 1 to draw a card into the
common hand, or blocks. A draw that pairs puts the drawer out of the round; a
good draw puts out everyone who had blocked. When nobody is open, the blockers
share the pot. A pirate left with no tokens after a payout ends the game: the
richest wins.
"""
from __future__ import annotations

from tabletop_kit import (
    E_ILLEGAL,
    E_IN_PLAY,
    E_NOT_EXPECTED,
    E_OUT_OF_PLAY,
    Cancel,
    Choose,
    Confirm,
    GameConfig,
    GameSpec,
    Look,
    Msg,
    PhaseTable,
    Rejected,
    Tap,
    add,
    given,
    msg,
    next_seat,
    on_button,
    on_card,
    on_option,
    option,
    option_of,
    per_seat,
    replace,
)

from .. import auberge
from ..auberge.deck import (
    COMPONENTS,
    DECK,
    DECK_FAMILY,
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    has_pair,
    pairs_with,
)
from . import texts_en, texts_fr
from .prompts import INSTRUCTIONS, badge, hint, prompt, result, tally
from .state import (
    AWAIT_DRAW,
    BLOCKED,
    COMMON,
    COMMON_CARDS,
    DECIDE,
    OPEN,
    OPTIONS,
    OUT,
    OVER,
    RESHUFFLE,
    State,
    seats_in,
    status,
    tokens,
    total_tokens,
    with_status,
)

# ---- helpers -----------------------------------------------------------------

def check_unseen(state: State, card: str) -> Rejected | None:
    """Every card in play is face up, so the device knows where each tapped card is."""
    if card in state.common:
        return Rejected(E_IN_PLAY, msg("core.in_play"))
    if card in state.discard:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    return None


def need_card(state: State, phase: str) -> State:
    """AMB-T11: a card is needed from an empty pile, so the discards are reshuffled first."""
    if state.pile == 0:
        return replace(state, phase=RESHUFFLE, resume=phase)
    return replace(state, phase=phase, resume=None)


# ---- setup (§3.4 ROUND_SETUP) ------------------------------------------------

def initial(config: GameConfig) -> State:
    """Round 1 starts at its two common-card taps; `first` holds the Button."""
    players = config.players
    button = config.first or players[0]
    return State(seq=0, phase=COMMON, options=config.options, seats=players, current=button,
                 button=button, round=1,
                 tokens=per_seat(players, option_of(config.options, "start_tokens", int)), pot=0,
                 common=(), discard=frozenset(), pile=DECK_SIZE, rstatus=per_seat(players, OPEN))


def common_card(state: State, card: str):
    """Step 2: two cards face up in the centre; a pair is discarded (AMB-T6)."""
    problem = check_unseen(state, card)
    if problem:
        return problem
    state = replace(state, pile=state.pile - 1, common=state.common + (card,))
    if len(state.common) < COMMON_CARDS:
        return need_card(state, COMMON), ()
    if not has_pair(state.common):
        return ante(state, ())
    state = replace(state, common=(), discard=state.discard | set(state.common))
    if option(state.options, "initial_pair") == "redeal":
        return need_card(state, COMMON), (msg("at.pair_redeal"),)
    return ante(state, (msg("at.pair_discarded"),))


def ante(state: State, effects: tuple[Msg, ...]):
    """Steps 3-4: everyone antes 1 (all have a token: AMB-T10); the Button decides first."""
    state = replace(state, tokens=tuple((s, n - 1) for s, n in state.tokens),
                    pot=state.pot + len(state.seats), phase=DECIDE, current=state.button)
    return state, effects + (msg("at.ante", pot=state.pot),)


# ---- phase: decisions (§3.4 DECIDE) ------------------------------------------

def decide(state: State, key: str):
    p = state.to_play
    if key == "block":
        return after_decision(with_status(state, (p,), BLOCKED), (msg("at.blocks", name=p),))
    if key != "draw":
        return Rejected(E_NOT_EXPECTED, hint(state))
    if tokens(state, p) == 0:                                 # AMB-T8
        return Rejected(E_ILLEGAL, msg("at.no_tokens"))
    return need_card(state, AWAIT_DRAW), ()


def back_to_decide(state: State):
    """BACK before the tap: nothing paid."""
    return replace(state, phase=DECIDE), ()


def drawn_card(state: State, card: str):
    """The drawer pays 1. A pair puts the drawer out (AMB-T5); else every blocker is out (AMB-T4)."""
    problem = check_unseen(state, card)
    if problem:
        return problem
    p = state.to_play
    state = replace(state, tokens=add(state.tokens, p, -1), pot=state.pot + 1,
                    pile=state.pile - 1)
    if pairs_with(card, state.common):
        state = replace(with_status(state, (p,), OUT), discard=state.discard | {card})
        return after_decision(state, (msg("at.failed", name=p),))
    blockers = seats_in(state, BLOCKED)
    state = replace(with_status(state, blockers, OUT), common=state.common + (card,))
    text = msg("at.good_draw_out", names=blockers) if blockers else msg("at.good_draw")
    return after_decision(state, (text,))


def after_decision(state: State, effects: tuple[Msg, ...]):
    """The last pirate standing must block (AMB-T3); with nobody open the round ends (AMB-T2)."""
    forced = last_pirate(state)
    if forced:
        state = with_status(state, (forced,), BLOCKED)
        effects = effects + (msg("at.must_block", name=forced),)
    if not seats_in(state, OPEN):
        return round_end(state, effects)
    following = next_seat(state.seats, state.to_play, lambda s: status(state, s) == OPEN)
    return replace(state, phase=DECIDE, current=following, resume=None), effects


def last_pirate(state: State) -> str | None:
    """The open pirate who must block now, if any (AMB-T3 and its option)."""
    open_ = seats_in(state, OPEN)
    if option(state.options, "last_player_rule") == "last_open":
        return open_[0] if len(open_) == 1 else None
    alive = tuple(s for s in state.seats if status(state, s) != OUT)
    return alive[0] if len(alive) == 1 and alive == open_ else None


# ---- phase: the end of a round (§3.4 ROUND_END) ------------------------------

def round_end(state: State, effects: tuple[Msg, ...]):
    """AMB-T9: the blockers share the pot; the remainder carries over; the common hand is discarded."""
    winners = seats_in(state, BLOCKED)
    share = state.pot // len(winners) if winners else 0
    state = replace(state, pot=state.pot - share * len(winners), common=(),
                    discard=state.discard | set(state.common),
                    tokens=tuple((s, n + share if s in winners else n) for s, n in state.tokens))
    effects += (msg("at.round_over", round=state.round),)
    effects += tuple(msg("at.takes", name=q, n=share, total=tokens(state, q)) for q in winners)
    if state.pot:
        effects += (msg("at.pot_left", n=state.pot),)
    effects += (msg("at.tokens", scores=tuple(msg("at.token_count", name=s, n=n)
                                              for s, n in state.tokens)),)
    if any(n == 0 for _, n in state.tokens):                  # AMB-T10
        state = replace(state, phase=OVER, resume=None)
        return state, effects + (given(result(state)).headline,)
    holder = state.button
    state = next_round(state)
    button = "at.button_moves" if state.button != holder else "at.button_stays"
    return state, effects + (msg(button, name=state.button),)


def next_round(state: State) -> State:
    """AMB-T7: the Button moves one seat clockwise unless it is fixed."""
    button = state.button
    if option(state.options, "button") == "rotate":
        button = next_seat(state.seats, button)
    state = replace(state, round=state.round + 1, button=button, current=button,
                    rstatus=per_seat(state.seats, OPEN))
    return need_card(state, COMMON)


def reshuffle(state: State):
    """AMB-T11: the discards (not the common hand) become the new pile."""
    state = replace(state, pile=state.pile + len(state.discard), discard=frozenset())
    return replace(state, phase=given(state.resume), resume=None), (msg("at.reshuffled", n=state.pile),)


# ---- the phase table ---------------------------------------------------------

TABLE: PhaseTable[State] = PhaseTable({
    COMMON: {Tap: on_card(common_card)},
    DECIDE: {Choose: on_option(decide)},
    AWAIT_DRAW: {Tap: on_card(drawn_card), Cancel: on_button(back_to_decide)},
    RESHUFFLE: {Confirm: on_button(reshuffle)},
    OVER: {},
})


# ---- invariants --------------------------------------------------------------

def invariants(state: State) -> list[str]:
    """All 55 cards in exactly one zone; tokens plus pot constant; no pair in the centre."""
    problems = []
    if set(state.common) & state.discard or not (set(state.common) | state.discard) <= DECK:
        problems.append("a card is both in the centre and discarded, or unknown")
    if state.pile < 0 or state.pile + len(state.common) + len(state.discard) != DECK_SIZE:
        problems.append(f"cards not conserved: pile {state.pile}")
    if has_pair(state.common):
        problems.append("the common hand holds a pair")
    total = sum(n for _, n in state.tokens) + state.pot
    if total != total_tokens(state.options, len(state.seats)) or min(n for _, n in state.tokens) < 0:
        problems.append(f"tokens not conserved: {total}")
    if {v for _, v in state.rstatus} - {OPEN, BLOCKED, OUT} or state.phase not in TABLE:
        problems.append("bad round status or phase")
    if (state.phase == RESHUFFLE) != (state.resume is not None):
        problems.append("a reshuffle without a phase to return to")
    return problems


# ---- registration ------------------------------------------------------------

GAME = GameSpec(
    id="tribord", title="A tribord!", deck=DECK_FAMILY,
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    components=COMPONENTS, options=OPTIONS, state_type=State, initial=initial,
    allowed=TABLE.allowed, hint=hint, play=TABLE.play, prompt=prompt, tally=tally,
    result=result, invariants=invariants, max_events=3000, order=3, instructions=INSTRUCTIONS,
    look=Look(name=msg("at.name"), badge=badge, asks_first=msg("at.button_holder"),
              deal=msg("at.deal")),
    home=__package__, manifest_from=auberge.__name__,
    texts={"en": texts_en.TEXT, "fr": texts_fr.TEXT},
)
