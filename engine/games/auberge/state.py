"""L'Auberge des pirates: phases, house rules, the state and what it tells."""
from __future__ import annotations

from tabletop_kit import OptionSpec, Table, next_seat, of, option, record

from .deck import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, value

# ---- metadata ----------------------------------------------------------------

HAND_DEALT = 3                     # §2.2: deal 3 each

# Phases (§2.4)
OPENING, OLDEST, TURN, TARGET = "opening", "oldest", "turn", "target"
ATTACK_CARD, CHALLENGE_CARD = "attack_card", "challenge_card"
ACCUSE_TAPS, VERDICT, RESHUFFLE, OVER = "accuse_taps", "verdict", "reshuffle", "over"

PHASES = (OPENING, OLDEST, TURN, TARGET, ATTACK_CARD, CHALLENGE_CARD, ACCUSE_TAPS, VERDICT, RESHUFFLE,
          OVER)

ACTIONS = ("attack", "challenge", "accuse", "draw")
VERDICTS = ("pair", "no_pair")

OPTIONS = (
    OptionSpec("accuse_verdict", "taps", kind="choice", choices=("taps", "buttons"), note="AMB-L11"),
    OptionSpec("illegal_attack", "reject", kind="choice", choices=("reject", "eliminate"),
               note="AMB-L4"),
    OptionSpec("empty_pile", "disable", kind="choice", choices=("disable", "reshuffle_discards"),
               note="AMB-L8"),
    # AMB-L1; 3 cards each must leave at least one in the pile: 3 * 18 = 54.
    OptionSpec("max_players", MAX_PLAYERS, kind="int", minimum=MIN_PLAYERS,
               maximum=(DECK_SIZE - 1) // HAND_DEALT, note="AMB-L1"),
)


# ---- the state ---------------------------------------------------------------

@record
class State(Table):
    out: tuple[str, ...]                            # eliminated pirates, in the order they went out
    fronts: tuple[tuple[str, tuple[str, ...]], ...]  # face-up rows, in placing order
    hands: tuple[tuple[str, int], ...]              # hidden: counts only
    pile: int
    discard: int
    out_uids: frozenset[str]                        # discarded cards the device has seen
    action: str | None = None                       # the action being set up
    target: str | None = None
    accused_taps: tuple[str, ...] = ()              # the accused hand: only while accusing


# ---- helpers -----------------------------------------------------------------

def front(state: State, seat: str) -> tuple[str, ...]:
    return of(state.fronts, seat)


def hand(state: State, seat: str) -> int:
    return of(state.hands, seat)


def players_in(state: State) -> tuple[str, ...]:
    return tuple(s for s in state.seats if s not in state.out)


def next_active(state: State, seat: str) -> str:
    """AMB-L3: the next seat clockwise still in."""
    return next_seat(state.seats, seat, lambda s: s not in state.out)


def on_table(state: State) -> frozenset[str]:
    return frozenset(c for _, row in state.fronts for c in row)


def targets(state: State) -> tuple[str, ...]:
    """§2.4: only other players who are still in."""
    return tuple(s for s in players_in(state) if s != state.current)


def can_draw(state: State) -> bool:
    """AMB-L8: an empty pile disables Draw and Challenge unless the discards are reshuffled."""
    if state.pile >= 1:
        return True
    return option(state.options, "empty_pile") == "reshuffle_discards" and state.discard >= 1


def legal_actions(state: State) -> tuple[str, ...]:
    """§2.4 TURN: Attack needs a hand card (AMB-L9); Accuse is always possible."""
    legal = {"attack": hand(state, state.to_play) >= 1, "challenge": can_draw(state),
             "accuse": True, "draw": can_draw(state)}
    return tuple(a for a in ACTIONS if legal[a])


def lowest_openers(state: State) -> tuple[str, ...]:
    low = min(value(front(state, s)[0]) for s in state.seats)
    return tuple(s for s in state.seats if value(front(state, s)[0]) == low)
