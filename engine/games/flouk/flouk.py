"""Flouk: grow the largest village of Flouks over rounds of hidden reveals.

Each round the players are dealt 4 cards, keep 2 and pass 1 to each side.
In 3 turns everyone reveals one card together and the device resolves them in
a fixed order: Decrees, normal Flouks, Chiefs, Actions. Chiefs and Actions go
by white number. What the rulebook leaves to the printed cards comes from the
café's card data (cards.py); what the device cannot see is reported by hand.
The game ends when 4 cards each can no longer be dealt; the largest village wins.
"""
from __future__ import annotations

from tabletop_kit import (
    E_IN_PLAY,
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
    msg,
    on_button,
    on_card,
    on_option,
    per_seat,
    replace,
)

from . import learning, resolve, scoring, texts_en, texts_fr
from .cards import (
    CHIEF,
    COMPONENTS,
    DECK_SIZE,
    DECREE,
    FLOUK,
    VILLAGERS,
    card_name,
    card_problems,
    check_data,
    default_info,
    detail_problem,
    read_cards,
    type_of,
)
from .effects import (
    choose_destination,
    choose_source,
    choose_target,
    effect_back,
    effect_choose,
    face_down_from,
    face_down_to,
    pick_card,
    report_back,
    report_choose,
    report_done,
    report_tap,
)
from .prompts import DEAL_KEY, END_GAME, INSTRUCTIONS, NO_CARD, badge, hint, prompt, tally
from .state import (
    ADJUST,
    CARDS_DEALT,
    CENSUS,
    DEAL,
    DISCARD,
    EFFECT_CARD,
    EFFECT_TARGET,
    FACE_DOWN_FROM,
    FACE_DOWN_TO,
    LAST,
    LEARN,
    OPTIONS,
    ORDER,
    OVER,
    PHASES,
    PILE_CHECK,
    REPORT,
    REPORT_DEST,
    REPORT_FROM,
    RESOLVE,
    REVEAL,
    SURE,
    State,
    add_hidden,
    hand,
    hidden_count,
    hidden_places,
    pending,
    player_limits,
    where,
)

# ---- setup (§5.2) ------------------------------------------------------------

def initial(config: GameConfig) -> State:
    """Play starts at round 1's deal confirmation, with all 100 cards in the pile."""
    cards = read_cards(config.data)
    players = config.players
    return State(seq=0, phase=DEAL, options=config.options, seats=players, current=None,
                 card_data=tuple(c for c in cards if c != default_info(c.card)),
                 hands=per_seat(players, 0), villages=per_seat(players, ()),
                 decrees=per_seat(players, None), adjust=per_seat(players, 0))


# ---- phase: the deal (§5.4 ROUND_START) --------------------------------------

def deal(state: State):
    """The one confirmation a round: discard, deal 4 each and pass (AMB-F2 for 2 players)."""
    state = replace(
        state, phase=REVEAL, pile=state.pile - CARDS_DEALT * len(state.seats),
        hands=per_seat(state.seats, CARDS_DEALT), round=state.round + 1, turn=1,
        current=state.seats[0], pile_changed=False)
    return state, (msg("fl.dealt", n=state.round, pile=state.pile),)


def pile_check(state: State, key: str):
    """A reported effect changed the pile: the table confirms there are enough cards."""
    if key == DEAL_KEY:
        return deal(state)
    if key == END_GAME:
        return scoring.start_final(state)
    return Rejected(E_NOT_EXPECTED, msg("core.use_buttons"))


# ---- phase: the reveal (§5.4 REVEAL) -----------------------------------------

def reveal(state: State, card: str):
    """The current seat's revealed card, checked against every zone the device tracks."""
    place = where(state, card) or ""
    kind, _, owner = place.partition(":")
    if kind == "village":
        return Rejected(E_IN_PLAY, msg("fl.in_village", name=owner))
    if kind == "decree":
        return Rejected(E_IN_PLAY, msg("fl.in_decree", name=owner))
    if kind == DISCARD:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    if kind == "pending":
        return Rejected(E_SAME_CARD, msg("core.same_card"))
    seat = state.to_play
    if hand(state, seat) > 0:
        return record(add_hidden(state, f"hand:{seat}", -1), card, ())
    # The count was wrong (an unreported effect): the card most likely came from the pile.
    source = next(p for p in hidden_places(state) if hidden_count(state, p) > 0)
    return record(add_hidden(state, source, -1), card, (msg("fl.hand_was_empty", name=seat),))


def no_card(state: State, key: str):
    """The menu's "no card": asked to be sure while the count says the player holds some."""
    if key != NO_CARD:
        return Rejected(E_NOT_EXPECTED, msg("fl.hint.reveal"))
    if hand(state, state.to_play) > 0:
        return replace(state, phase=SURE), ()
    return record(state, None, ())


def sure_no_card(state: State):
    """AMB-F10: the player holds nothing after all; their counted cards were lost track of."""
    seat, held = state.to_play, hand(state, state.to_play)
    state = add_hidden(add_hidden(state, DISCARD, held), f"hand:{seat}", -held)
    return record(replace(state, phase=REVEAL), None, ())


def not_sure(state: State):
    return replace(state, phase=REVEAL), ()


def record(state: State, card: str | None, effects: tuple):
    """Note the reveal; the last one of the turn starts the resolution."""
    state = replace(state, revealed=state.revealed + ((state.to_play, card),))
    if len(state.revealed) == len(state.seats):
        return resolve.start(state, effects)
    return replace(state, current=state.seats[len(state.revealed)]), effects


# ---- the phase table ---------------------------------------------------------

TABLE: PhaseTable[State] = PhaseTable({
    DEAL: {Confirm: on_button(deal)},
    PILE_CHECK: {Choose: on_option(pile_check)},
    REVEAL: {Tap: on_card(reveal), Choose: on_option(no_card)},
    SURE: {Confirm: on_button(sure_no_card), Cancel: on_button(not_sure)},
    ORDER: {Choose: on_option(resolve.choose_first)},
    LEARN: {Choose: on_option(learning.answer)},
    EFFECT_TARGET: {Choose: on_option(choose_target)},
    EFFECT_CARD: {Tap: on_card(pick_card), Choose: on_option(effect_choose),
                  Cancel: on_button(effect_back)},
    REPORT: {Tap: on_card(report_tap), Choose: on_option(report_choose),
             Confirm: on_button(report_done)},
    REPORT_DEST: {Choose: on_option(choose_destination), Cancel: on_button(report_back)},
    REPORT_FROM: {Choose: on_option(choose_source), Cancel: on_button(report_back)},
    FACE_DOWN_FROM: {Choose: on_option(face_down_from), Cancel: on_button(report_back)},
    FACE_DOWN_TO: {Choose: on_option(face_down_to), Cancel: on_button(report_back)},
    LAST: {Confirm: on_button(scoring.start_final)},
    CENSUS: {Tap: on_card(scoring.census_tap), Confirm: on_button(scoring.census_done)},
    ADJUST: {Choose: on_option(scoring.adjust), Confirm: on_button(scoring.adjust_done)},
    OVER: {},
})


def play(state: State, event):
    """Validate and apply one event; a finished power or effect resumes the resolution."""
    outcome = TABLE.play(state, event)
    if isinstance(outcome, tuple) and outcome[0].phase == RESOLVE:
        return resolve.advance(*outcome)
    return outcome


# ---- invariants --------------------------------------------------------------

def invariants(state: State) -> list[str]:
    """The 100 cards conserved; each tracked card in one zone; villages hold only Flouks."""
    tracked = [c for _, cards in state.villages for c in cards]
    tracked += [c for _, c in state.decrees if c] + list(state.discard) + list(pending(state))
    counts = (state.pile, state.discard_count) + tuple(n for _, n in state.hands)
    problems = []
    if len(tracked) + sum(counts) != DECK_SIZE:
        problems.append(f"cards not conserved: {len(tracked)} tracked + {sum(counts)} hidden")
    if len(set(tracked)) != len(tracked):
        problems.append("a card is in two zones")
    if min(counts) < 0:
        problems.append("a negative card count")
    # by set first (every candidate's state is checked); card by card only where one is amiss
    if not all(VILLAGERS.issuperset(cards) for _, cards in state.villages) and \
            any(type_of(c) not in (FLOUK, CHIEF) for _, cards in state.villages for c in cards):
        problems.append("a village holds a card that is not a Flouk")
    if any(c and type_of(c) != DECREE for _, c in state.decrees):
        problems.append("a Decree slot holds a card that is not a Decree")
    if state.phase not in PHASES:
        problems.append(f"unknown phase {state.phase}")
    return problems


# ---- registration ------------------------------------------------------------

GAME = GameSpec(
    id="flouk", title="Flouk", deck="flouk", min_players=3, max_players=5,
    components=COMPONENTS, options=OPTIONS, state_type=State, initial=initial,
    allowed=TABLE.allowed, hint=hint, play=play, prompt=prompt, tally=tally,
    result=scoring.result, invariants=invariants, player_limits=player_limits, data_check=check_data,
    card_problems=card_problems, detail_problem=detail_problem,
    max_events=3000, look=Look(name=msg("fl.name"), badge=badge, deal=msg("fl.deal")),
    order=5, card_name=card_name, instructions=INSTRUCTIONS, event_words=learning.event_words,
    home=__package__, texts={"en": texts_en.TEXT, "fr": texts_fr.TEXT},
)
