"""L'Auberge des pirates: the last pirate without a pair wins.

Each pirate keeps a hidden hand and a face-up row. On a turn a pirate attacks
(gives a hand card to another's row, never making a pair), challenges (places a
blind card from the pile in another's row: a pair puts the challenger out),
accuses (a pair in the accused's hand and row puts them out, else the accuser
is out) or draws. The device sees the row cards and, privately, an accused
pirate's hand; it never shows or keeps the hand's values.
"""
from __future__ import annotations

from collections.abc import Callable

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
    Msg,
    PhaseTable,
    Rejected,
    Tap,
    add,
    given,
    msg,
    on_button,
    on_card,
    on_option,
    option,
    option_of,
    per_seat,
    replace,
    with_value,
)

from . import texts_en, texts_fr
from .deck import COMPONENTS, DECK, DECK_FAMILY, DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, has_pair, pairs_with, value
from .prompts import INSTRUCTIONS, event_words, hint, prompt, result, tally
from .state import (
    ACCUSE_TAPS,
    ACTIONS,
    ATTACK_CARD,
    CHALLENGE_CARD,
    HAND_DEALT,
    OLDEST,
    OPENING,
    OPTIONS,
    OVER,
    PHASES,
    RESHUFFLE,
    TARGET,
    TURN,
    VERDICT,
    VERDICTS,
    State,
    front,
    hand,
    legal_actions,
    lowest_openers,
    next_active,
    on_table,
    players_in,
)

# ---- helpers -----------------------------------------------------------------

def check_face_down(state: State, card: str) -> Rejected | None:
    """A card coming from a hand or the pile cannot be one the device saw elsewhere."""
    if card in on_table(state):
        return Rejected(E_IN_PLAY, msg("core.in_play"))
    if card in state.out_uids:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    return None


def start_turn(state: State, seat: str) -> State:
    return replace(state, phase=TURN, current=seat, action=None, target=None,
                   accused_taps=())


def place(state: State, seat: str, card: str) -> State:
    return replace(state, fronts=with_value(state.fronts, seat, front(state, seat) + (card,)))


def to_discard(state: State, card: str) -> State:
    return replace(state, discard=state.discard + 1, out_uids=state.out_uids | {card})


# ---- setup (§2.2) ------------------------------------------------------------

def initial(config: GameConfig) -> State:
    """After the deal: everyone holds 3, the opening cards are next."""
    players = config.players
    return State(seq=0, phase=OPENING, options=config.options, seats=players, current=players[0],
                 out=(), fronts=per_seat(players, ()),
                 hands=per_seat(players, HAND_DEALT), pile=DECK_SIZE - HAND_DEALT * len(players),
                 discard=0, out_uids=frozenset())


def open_card(state: State, card: str):
    """§2.2 step 3: each seat in turn taps the card it placed face up."""
    problem = check_face_down(state, card)
    if problem:
        return problem
    state = place(state, state.to_play, card)
    state = replace(state, hands=add(state.hands, state.to_play, -1))
    waiting = [s for s in state.seats if not front(state, s)]
    if waiting:
        return replace(state, current=waiting[0]), ()
    tied = lowest_openers(state)
    if len(tied) > 1:                                       # AMB-L2
        return replace(state, phase=OLDEST, current=tied[0]), ()
    return start_turn(state, tied[0]), (msg("la.starts", name=tied[0]),)


def choose_oldest(state: State, seat: str):
    if seat not in state.seats:
        return Rejected(E_NOT_EXPECTED, hint(state))
    if seat not in lowest_openers(state):
        return Rejected(E_NOT_ELIGIBLE, msg("la.not_tied", name=seat))
    return start_turn(state, seat), (msg("la.starts", name=seat),)


# ---- phase: the turn (§2.4) --------------------------------------------------

def choose_action(state: State, action: str):
    if action not in ACTIONS:
        return Rejected(E_NOT_EXPECTED, hint(state))
    if action not in legal_actions(state):
        text = "la.no_hand" if action == "attack" else "la.pile_empty"
        return Rejected(E_ILLEGAL, msg(text))
    state = replace(state, action=action)
    if action in ("draw", "challenge") and state.pile == 0:
        return replace(state, phase=RESHUFFLE), ()
    if action == "draw":
        return draw(state)
    return replace(state, phase=TARGET), ()


def back_to_turn(state: State):
    """BACK returns to TURN until the action commits."""
    return start_turn(state, state.to_play), ()


def reshuffle(state: State):
    """AMB-L8 `reshuffle_discards`: the discards become the pile, then the action goes on."""
    state = replace(state, pile=state.discard, discard=0, out_uids=frozenset())
    effects = (msg("la.reshuffled", n=state.pile),)
    if state.action == "draw":
        drawn, more = draw(state)
        return drawn, effects + more
    return replace(state, phase=TARGET), effects


def draw(state: State):
    """Draw 1; the device never hints whether it makes a pair."""
    p = state.to_play
    state = replace(state, pile=state.pile - 1, hands=add(state.hands, p, 1))
    following = next_active(state, p)
    return start_turn(state, following), (msg("la.draw", name=p, next=following),)


def choose_target(state: State, seat: str):
    if seat not in state.seats:
        return Rejected(E_NOT_EXPECTED, hint(state))
    if seat == state.current:
        return Rejected(E_NOT_ELIGIBLE, msg("la.not_yourself"))
    if seat in state.out:
        return Rejected(E_NOT_ELIGIBLE, msg("la.is_out", name=seat))
    state = replace(state, target=seat)
    if state.action == "attack":
        return replace(state, phase=ATTACK_CARD), ()
    if state.action == "challenge":
        return replace(state, phase=CHALLENGE_CARD), ()
    return open_accusation(state)


def attack_card(state: State, card: str):
    """Attack: the hand card joins the target's row, and the target plays next (AMB-L12)."""
    problem = check_face_down(state, card)
    if problem:
        return problem
    p, t = state.to_play, given(state.target)
    if pairs_with(card, front(state, t)):
        if option(state.options, "illegal_attack") == "reject":      # AMB-L4
            return Rejected(E_ILLEGAL, msg("la.pairs_with", name=t, v=value(card)))
        state = to_discard(replace(state, hands=add(state.hands, p, -1)), card)
        return eliminate(state, p, lambda s: next_active(s, p), (msg("la.pair_out", name=p),))
    state = place(replace(state, hands=add(state.hands, p, -1)), t, card)
    return start_turn(state, t), (msg("la.attacked", target=t),)


def challenge_card(state: State, card: str):
    """Challenge: a pair puts the challenger out, discarding only the drawn card (AMB-L10)."""
    problem = check_face_down(state, card)
    if problem:
        return problem
    p, t = state.to_play, given(state.target)
    state = replace(state, pile=state.pile - 1)
    if pairs_with(card, front(state, t)):
        return eliminate(to_discard(state, card), p, lambda s: next_active(s, p),
                         (msg("la.pair_out", name=p),))
    return start_turn(place(state, t, card), t), (msg("la.challenge_ok", target=t),)


# ---- phase: the accusation (§2.4, AMB-L6, AMB-L11) ---------------------------

def open_accusation(state: State):
    t = given(state.target)
    if hand(state, t) == 0:             # front cards never pair with each other (AMB-L6)
        return verdict(state, False, (msg("la.empty_hand", name=t),))
    if option(state.options, "accuse_verdict") == "buttons":
        return replace(state, phase=VERDICT), ()
    return replace(state, phase=ACCUSE_TAPS), ()


def accused_tap(state: State, card: str):
    """A private tap of the accused's hand: checked, counted, never shown."""
    need = hand(state, given(state.target))
    if card in state.accused_taps:
        return Rejected(E_SAME_CARD, msg("core.same_card"))
    problem = check_face_down(state, card)
    if problem:
        return problem
    if len(state.accused_taps) >= need:
        return Rejected(E_ILLEGAL, msg("la.all_tapped", n=need))
    return replace(state, accused_taps=state.accused_taps + (card,)), ()


def judge_taps(state: State):
    """SELECT: with the whole hand tapped, any two equal values among hand and row is a pair."""
    t = given(state.target)
    missing = hand(state, t) - len(state.accused_taps)
    if missing > 0:
        return Rejected(E_ILLEGAL, msg("la.tap_more", n=missing))
    return verdict(state, has_pair(state.accused_taps + front(state, t)))


def choose_verdict(state: State, key: str):
    if key not in VERDICTS:
        return Rejected(E_NOT_EXPECTED, hint(state))
    return verdict(state, key == "pair")


def verdict(state: State, pair: bool, effects: tuple[Msg, ...] = ()):
    """Pair: the accused is out, play goes on after the accuser. No pair: the accuser is out."""
    p, t = state.to_play, given(state.target)
    state = replace(state, accused_taps=())      # forget the hidden hand at once
    if pair:
        return eliminate(state, t, lambda s: next_active(s, p), effects + (msg("la.accuse_pair", name=t),))
    return eliminate(state, p, lambda s: t, effects + (msg("la.accuse_no_pair", name=p),))


def eliminate(state: State, loser: str, successor: Callable[[State], str], effects: tuple[Msg, ...]):
    """AMB-L7: all the loser's cards are discarded; the last pirate in wins.

    `successor` names who plays next once the loser is out (AMB-L3).
    """
    row = front(state, loser)
    state = replace(
        state, out=state.out + (loser,), discard=state.discard + len(row) + hand(state, loser),
        out_uids=state.out_uids | set(row), fronts=with_value(state.fronts, loser, ()),
        hands=with_value(state.hands, loser, 0))
    remaining = players_in(state)
    if len(remaining) == 1:
        state = replace(state, phase=OVER, current=remaining[0], action=None, target=None)
        return state, effects + (msg("la.discard_all", name=loser), msg("la.wins", name=remaining[0]))
    following = successor(state)
    return start_turn(state, following), effects + (msg("la.discard_all_next", name=loser,
                                                        next=following),)


# ---- the phase table ---------------------------------------------------------

TABLE: PhaseTable[State] = PhaseTable({
    OPENING: {Tap: on_card(open_card)},
    OLDEST: {Choose: on_option(choose_oldest)},
    TURN: {Choose: on_option(choose_action)},
    TARGET: {Choose: on_option(choose_target), Cancel: on_button(back_to_turn)},
    ATTACK_CARD: {Tap: on_card(attack_card), Cancel: on_button(back_to_turn)},
    CHALLENGE_CARD: {Tap: on_card(challenge_card), Cancel: on_button(back_to_turn)},
    ACCUSE_TAPS: {Tap: on_card(accused_tap), Confirm: on_button(judge_taps), Cancel: on_button(back_to_turn)},
    VERDICT: {Choose: on_option(choose_verdict), Cancel: on_button(back_to_turn)},
    RESHUFFLE: {Confirm: on_button(reshuffle), Cancel: on_button(back_to_turn)},
    OVER: {},
})


# ---- invariants --------------------------------------------------------------

def invariants(state: State) -> list[str]:
    """All 55 cards in exactly one zone; no row holds a pair; the accused hand only while accusing."""
    problems = []
    rows = [c for _, row in state.fronts for c in row]
    seen = rows + sorted(state.out_uids)
    if len(set(seen)) != len(seen) or not set(seen) <= DECK:
        problems.append("a seen card is in two zones, or unknown")
    hidden = state.pile + sum(n for _, n in state.hands) + state.discard - len(state.out_uids)
    if hidden < 0 or len(state.out_uids) > state.discard or len(seen) + hidden != DECK_SIZE:
        problems.append(f"cards not conserved: {len(seen)} seen, {hidden} hidden")
    if min([state.pile] + [n for _, n in state.hands]) < 0:
        problems.append("negative pile or hand")
    if any(has_pair(row) for _, row in state.fronts):
        problems.append("a row holds a pair")
    if any(front(state, s) or hand(state, s) for s in state.out):
        problems.append("an eliminated pirate still holds cards")
    taps = state.accused_taps
    if taps and (state.phase != ACCUSE_TAPS or len(taps) > hand(state, given(state.target))
                 or set(taps) & set(seen)):
        problems.append("accused hand taps kept outside an open accusation")
    if state.phase not in PHASES or state.current in state.out:
        problems.append(f"bad phase {state.phase} or current {state.current}")
    return problems


# ---- registration ------------------------------------------------------------

GAME = GameSpec(
    id="auberge", title="L'Auberge des pirates", deck=DECK_FAMILY,
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    components=COMPONENTS, options=OPTIONS, state_type=State, initial=initial,
    allowed=TABLE.allowed, hint=hint, play=TABLE.play, prompt=prompt, tally=tally,
    result=result, invariants=invariants, max_events=1500, event_words=event_words,
    instructions=INSTRUCTIONS,
    look=Look(name=msg("la.name"), deal=msg("la.deal")), order=2,
    player_limits=lambda options: (MIN_PLAYERS, option_of(options, "max_players", int)),
    home=__package__, texts={"en": texts_en.TEXT, "fr": texts_fr.TEXT},
)
