"""Palourde: a memory game on a Beach of 53 face-down cards.

On a turn the fisherman flips two cards: a pair scores or acts (pair table,
§1.4), anything else is turned back. High Tide, Storm Warning and Basket
Overboard act at once when flipped. The third High Tide ends the game; the
most clams wins the Golden Clam.
"""
from __future__ import annotations

from tabletop_kit import (
    E_ILLEGAL,
    E_IN_PLAY,
    E_NOT_ELIGIBLE,
    E_NOT_EXPECTED,
    E_OUT_OF_PLAY,
    E_SAME_CARD,
    Choose,
    Confirm,
    GameConfig,
    GameSpec,
    Info,
    Look,
    PhaseTable,
    Rejected,
    Tap,
    add,
    given,
    kind_of,
    msg,
    on_button,
    on_card,
    on_option,
    option,
    per_seat,
    replace,
    with_value,
)

from . import texts_en, texts_fr
from .prompts import INSTRUCTIONS, badge, hint, prompt, reminder, result, tally
from .state import (
    BEACH,
    BIRD_FOOD,
    CLAMS,
    COMPONENTS,
    EVENTS,
    FIRST,
    FLIP1,
    FLIP2,
    HIGH_TIDES_TO_END,
    JOIN,
    OPTIONS,
    OVER,
    PRIZES,
    SETUP_BEACH,
    STORM,
    VICTIM,
    State,
    clams_of,
    eligible_victims,
    kind_name,
    new_turn,
    pass_turn,
    seat_of_basket,
)

# ---- setup (§1.2) ------------------------------------------------------------

def initial(config: GameConfig) -> State:
    """With players given, play starts at the first flip (seat i holds basket#i); else at JOIN."""
    players = config.players
    state = State(seq=0, phase=JOIN, options=config.options, seats=players,
                  baskets=tuple(range(1, len(players) + 1)), current=None, beach_down=BEACH,
                  ht_up=frozenset(), removed=frozenset(), clams=per_seat(players, 0))
    if players:
        state = replace(state, phase=FLIP1, current=config.first or players[0])
    return state


def join(state: State, card: str):
    if kind_of(card) != "basket":
        return Rejected(E_NOT_EXPECTED, msg("pa.tap_basket"))
    if seat_of_basket(state, card) is not None:
        return Rejected(E_ILLEGAL, msg("pa.already_joined"))
    index = int(card.split("#")[1])
    name = f"P{index}"
    state = replace(state, seats=state.seats + (name,), baskets=state.baskets + (index,),
                    clams=state.clams + ((name, 0),))
    if len(state.seats) == 5:     # all Baskets are in: continue on its own
        state = replace(state, phase=FIRST)
    return state, ()


def close_join(state: State):
    if len(state.seats) < 2:
        return Rejected(E_ILLEGAL, msg("pa.need_players"))
    return replace(state, phase=FIRST), ()


def choose_first(state: State, seat: str | None):
    """AMB-P3: the table names the youngest; the device never asks for ages."""
    if seat not in state.seats:
        return Rejected(E_NOT_ELIGIBLE, msg("pa.not_playing"))
    return replace(state, phase=SETUP_BEACH, current=seat), ()


def tap_first(state: State, card: str):
    """FIRST by tap: the youngest player's Basket."""
    if kind_of(card) != "basket":
        return Rejected(E_NOT_EXPECTED, msg("pa.tap_basket"))
    return choose_first(state, seat_of_basket(state, card))


def beach_laid(state: State):
    return replace(state, phase=FLIP1), ()


# ---- phase: flip (§1.5) ------------------------------------------------------

def check_flip(state: State, card: str):
    """The tap checks of FLIP1/FLIP2 after the registry; a Basket only shows its clams."""
    kind = kind_of(card)
    if kind == "basket":
        seat = seat_of_basket(state, card)
        if seat is None:
            return Rejected(E_NOT_EXPECTED, msg("pa.basket_not_in_game"))
        return Info(msg("pa.basket_info", name=seat, n=clams_of(state, seat)))
    if kind in PRIZES:
        return Rejected(E_NOT_EXPECTED, msg("pa.prize_card"))
    if card in state.ht_up:
        return Rejected(E_IN_PLAY, msg("pa.high_tide_up"))
    if card in state.removed:
        return Rejected(E_OUT_OF_PLAY, msg("core.out_of_play"))
    if state.phase == FLIP2 and card == state.first_flip:
        return Rejected(E_SAME_CARD, msg("pa.flip_different"))
    return None


def flip(state: State, card: str):
    problem = check_flip(state, card)
    if problem is not None:
        return problem
    if kind_of(card) in EVENTS:
        # AMB-P6: a first card flipped before an event is simply turned back.
        return resolve_event(replace(state, first_flip=None), card, state.first_flip)
    if state.phase == FLIP1:
        return replace(state, phase=FLIP2, first_flip=card), ()
    return resolve_pair(state, given(state.first_flip), card)


def resolve_event(state: State, card: str, first: str | None):
    """`first`: the card flipped before the event, if any, which goes back face down."""
    kind = kind_of(card)
    if kind == "high_tide":
        return high_tide(state, card, first)
    if kind == "basket_overboard":
        return basket_overboard(state, card)
    return storm(state, card)


def high_tide(state: State, card: str, first: str | None):
    """AMB-P5: the turn passes at once; the third High Tide ends the game. AMB-P6: a first
    card flipped before it is turned back, and the table is told so."""
    state = replace(state, beach_down=state.beach_down - {card},
                    ht_up=state.ht_up | {card})
    up = len(state.ht_up)
    if up >= HIGH_TIDES_TO_END:
        state = replace(state, phase=OVER, first_flip=None)
        return state, (msg("pa.high_tide_end", n=up), given(result(state)).headline)
    flipper = state.to_play
    state = pass_turn(state)
    if first is not None:
        return state, (msg("pa.high_tide_second", n=up, name=flipper, card=kind_name(first),
                           next=state.current),)
    return state, (msg("pa.high_tide", n=up, name=flipper, next=state.current),)


def basket_overboard(state: State, card: str):
    """AMB-P9, AMB-P10: lose every clam (those cards stay out), then a fresh turn."""
    lost = clams_of(state, state.to_play)
    state = replace(state, beach_down=state.beach_down - {card},
                    removed=state.removed | {card},
                    clams=with_value(state.clams, state.to_play, 0))
    text = msg("pa.overboard", n=lost, name=state.current) if lost else \
        msg("pa.overboard_empty", name=state.current)
    return new_turn(state, state.to_play), (text,)


def storm(state: State, card: str):
    """AMB-P7, AMB-P8: Storm lifts the peek ban; High Tides stay up unless the option says so."""
    beach, up = state.beach_down - {card}, state.ht_up
    if option(state.options, "storm_resets_high_tides"):
        beach, up = beach | up, frozenset()
    state = replace(state, phase=STORM, beach_down=beach, ht_up=up,
                    removed=state.removed | {card}, peek_reminder=None)
    return state, (msg("pa.storm_flipped"),)


def storm_done(state: State):
    if option(state.options, "storm_ends_turn"):
        return pass_turn(state), ()
    return new_turn(state, state.to_play), ()


def bank(state: State, cards: tuple[str, str], gain: int = 0) -> State:
    """The pair's cards leave the Beach (into a basket or the discard); `gain` clams scored."""
    return replace(state, beach_down=state.beach_down - set(cards),
                   removed=state.removed | set(cards),
                   clams=add(state.clams, state.to_play, gain), first_flip=None)


def resolve_pair(state: State, c1: str, c2: str):
    """§1.4 pair table; the order of the two flips does not matter."""
    p = state.to_play
    kinds = sorted((kind_of(c1), kind_of(c2)))
    name1, name2 = kind_name(c1), kind_name(c2)
    if kinds == ["clam", "clam"]:
        state = bank(state, (c1, c2), 2)
        replay = option(state.options, "replay_after_clam_pair")    # AMB-P11
        state = new_turn(state, p) if replay else pass_turn(state)
        return state, (msg("pa.clam_pair", name=p, n=clams_of(state, p), next=state.to_play),)
    if kinds == ["clam", "rake"]:
        state = bank(state, (c1, c2), 1)                      # AMB-P10: a fresh turn
        return new_turn(state, p), (msg("pa.clam_rake", name=p, n=clams_of(state, p)),)
    if kinds == ["crab", "crab"]:
        return crab_pair(bank(state, (c1, c2)), p)
    if kinds == ["shrimp", "shrimp"]:
        state = replace(pass_turn(bank(state, (c1, c2))), peek_reminder=p)
        return state, (msg("pa.shrimp", name=p, next=state.current),)
    if "bird" in kinds and kinds != ["bird", "bird"] and (set(kinds) - {"bird"}) <= set(BIRD_FOOD):
        food = kind_name(c2 if kind_of(c1) == "bird" else c1)   # AMB-P14: birds eat clams too
        state = pass_turn(bank(state, (c1, c2)))
        return state, (msg("pa.bird", food=food, name=p, next=state.current),)
    # AMB-P13: anything else is no match; both cards go back face down.
    state = pass_turn(replace(state, first_flip=None))
    return state, (msg("pa.no_match", a=name1, b=name2, name=p, next=state.current),)


def crab_pair(state: State, p: str):
    if not eligible_victims(state):
        state = pass_turn(state)
        return state, (msg("pa.no_clams_to_steal", name=p, next=state.current),)
    return replace(state, phase=VICTIM), (msg("pa.crab_pair", name=p),)


def rob(state: State, victim: str | None):
    """VICTIM: steal one clam from an eligible player (AMB-P12)."""
    if victim is None:
        return Rejected(E_NOT_EXPECTED, msg("pa.choose_victim"))
    if victim == state.current:
        return Rejected(E_NOT_ELIGIBLE, msg("pa.rob_yourself"))
    if victim not in eligible_victims(state):
        return Rejected(E_NOT_ELIGIBLE, msg("pa.no_clams", name=victim))
    thief = state.to_play
    clams = add(add(state.clams, victim, -1), thief, 1)
    state = pass_turn(replace(state, clams=clams))
    return state, (msg("pa.stolen", thief=thief, name=victim, next=state.current),)


# ---- phase: victim (§1.4 crab pair, AMB-P12) ---------------------------------

def tap_victim(state: State, card: str):
    """VICTIM by tap: the robbed player's Basket."""
    if kind_of(card) != "basket":
        return Rejected(E_NOT_EXPECTED, msg("pa.choose_victim"))
    victim = seat_of_basket(state, card)
    return rob(state, victim) if victim else Rejected(E_NOT_ELIGIBLE, msg("pa.not_playing"))


def choose_victim(state: State, key: str):
    """VICTIM by menu: a player, or no theft at all."""
    if key == "no_steal":
        state = pass_turn(state)
        return state, (msg("pa.no_steal", next=state.current),)
    if key not in state.seats:
        return Rejected(E_NOT_EXPECTED, msg("pa.choose_victim"))
    return rob(state, key)


# ---- the phase table ---------------------------------------------------------

TABLE: PhaseTable[State] = PhaseTable({
    JOIN: {Tap: on_card(join), Confirm: on_button(close_join)},
    FIRST: {Tap: on_card(tap_first), Choose: on_option(choose_first)},
    SETUP_BEACH: {Confirm: on_button(beach_laid)},
    FLIP1: {Tap: on_card(flip)},
    FLIP2: {Tap: on_card(flip)},
    VICTIM: {Tap: on_card(tap_victim), Choose: on_option(choose_victim)},
    STORM: {Confirm: on_button(storm_done)},
    OVER: {},
})


# ---- invariants --------------------------------------------------------------

def invariants(state: State) -> list[str]:
    """Every Beach card in exactly one zone; 20 clams conserved; at most 3 High Tides up."""
    problems = []
    zones = (state.beach_down, state.ht_up, state.removed)
    if sum(len(z) for z in zones) != len(BEACH) or frozenset().union(*zones) != BEACH:
        problems.append("Beach cards not each in exactly one zone")
    banked = sum(clams_of(state, s) for s in state.seats)
    clams_down = len(state.beach_down & CLAMS)
    clams_out = len(state.removed & CLAMS)
    if banked > clams_out or clams_down + clams_out != 20 or min((v for _, v in state.clams), default=0) < 0:
        problems.append(f"clams not conserved: banked {banked}, out {clams_out}, down {clams_down}")
    if len(state.ht_up) > HIGH_TIDES_TO_END:
        problems.append("more than 3 High Tides up")
    if state.phase not in TABLE:
        problems.append(f"unknown phase {state.phase}")
    return problems


# ---- registration ------------------------------------------------------------

GAME = GameSpec(
    id="palourde", title="Palourde", deck="palourde", min_players=2, max_players=5,
    components=COMPONENTS, options=OPTIONS, state_type=State, initial=initial,
    allowed=TABLE.allowed, hint=hint, play=TABLE.play, prompt=prompt, tally=tally,
    result=result, invariants=invariants, extra_cards=("title",), joins_by_tap=True,
    max_events=400, reminder=reminder, look=Look(name=msg("pa.name"), badge=badge,
                                      deal=msg("pa.prompt.beach"),
                                      asks_first=msg("pa.youngest"),
                                      asks_seat=msg("pa.whose_basket")), order=1,
    card_name=kind_name, instructions=INSTRUCTIONS,
    home=__package__, texts={"en": texts_en.TEXT, "fr": texts_fr.TEXT},
)
