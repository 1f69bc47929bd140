"""Tamalou's metadata and state, and the queries the rules and prompts share."""
from __future__ import annotations

from tabletop_kit import Msg, OptionSpec, Table, of, option, record

from .scoring import BLIND_SWAP, CARDS, LOOK_AND_SWAP, LOOK_OPPONENT, LOOK_OWN, check_match, label, points, power

# ---- metadata ----------------------------------------------------------------

# §4.1: 52 single cards; jokers are registered but not used (TM-01).
COMPONENTS = tuple((card, 1) for card in CARDS)
JOKERS = ("joker#1", "joker#2")
DECK_SIZE = len(CARDS)
HAND = 4                                # §4.2: a 2×2 square each

OPTIONS = (
    OptionSpec("snap_match", "rank", kind="choice", choices=("rank", "points"), note="AMB-TA1"),
    OptionSpec("call_timing", "instead_of_turn", kind="choice",
               choices=("instead_of_turn", "after_own_turn"), note="AMB-TA10"),
    OptionSpec("lock_caller", False, note="AMB-TA11"),
    OptionSpec("black_king_swap", "mandatory", kind="choice", choices=("mandatory", "optional"),
               note="AMB-TA7"),
    OptionSpec("all_must_be_le5", False, note="AMB-TA18"),
    OptionSpec("match", "single", kind="text", check=check_match, note="AMB-TA19",
               presets=("rounds:3", "rounds:5", "threshold:50", "threshold:100")),
    # §4.5 gives it no top: the menu's picker goes to 99, a script as far as it likes
    OptionSpec("caller_fail_penalty", 0, kind="int", minimum=0, note="§4.5"),
    # §4.4 LAST SNAPS: the device's countdown in seconds; 0 leaves the step out
    OptionSpec("last_snap_s", 5, kind="int", minimum=0, maximum=60, note="§4.4 LAST SNAPS"),
)

# Phases (§4.4): one per prompt. The rules' own play/last_round split is `caller is None`.
OPENING, TURN, GIVE_UP, DRAWN = "opening", "turn", "give_up", "drawn"
KEEP, PLAYED = "keep", "played"
POWER, SNAP_WHO, PENALTY_WHO, CALL = "power", "snap_who", "penalty_who", "call"
LAST_SNAPS = "last_snaps"
REVEAL, MISMATCH, DEAL, OVER = "reveal", "mismatch", "deal", "over"
TURN_KEYS = ("draw", "take_discard", "tamalou", "penalty")
HOLDING = (DRAWN, KEEP, PLAYED)         # the drawn card is in a hand, seen by nobody but its owner


# ---- the state ---------------------------------------------------------------

@record
class State(Table):
    """`current` is the turn's player, or who is revealing."""

    first: str                              # who opens this round (moves each round, §4.5)
    pile: int                               # face-down cards left to draw
    discard: tuple[str, ...]                # face up, top last: every card here was tapped
    counts: tuple[tuple[str, int], ...]     # cards in each square (inferred, §4.6)
    totals: tuple[tuple[str, int], ...]     # match totals
    history: tuple[tuple[tuple[str, int], ...], ...] = ()   # what each round added to totals
    round: int = 1
    caller: str | None = None
    final_queue: tuple[str, ...] = ()       # who still has their last turn (AMB-TA11)
    played: str | None = None               # the card whose power is being used
    target: str | None = None               # the opponent named for a swap, for the log
    snapped: str | None = None              # the card of a snap waiting for "Who discarded?"
    revealed: tuple[tuple[str, tuple[str, ...]], ...] = ()  # finished reveals, in seat order
    tapping: tuple[str, ...] = ()           # the current reveal's taps, uncommitted

# ---- helpers -----------------------------------------------------------------

def count_of(state: State, seat: str) -> int:
    return of(state.counts, seat)


def top(state: State) -> str | None:
    return state.discard[-1] if state.discard else None


def can_draw(state: State) -> bool:
    """A card can come from the pile, after a reshuffle of the discard if need be (AMB-TA16)."""
    return state.pile > 0 or len(state.discard) > 1


def holders(state: State) -> tuple[str, ...]:
    """Players with a card in their square: who may have snapped (AMB-TA15)."""
    return tuple(s for s in state.seats if count_of(state, s) > 0)


def snap_phase(state: State) -> str:
    """Where a snap returns: the turn menu, or the last snaps once every last turn is played."""
    return LAST_SNAPS if state.caller is not None and not state.final_queue else TURN


def match_mode(state: State) -> bool:
    return option(state.options, "match") != "single"


def last_round(state: State) -> bool:
    return state.caller is not None


def round_scores(state: State) -> tuple[tuple[str, int], ...]:
    """The points of each finished reveal, in seat order."""
    return tuple((seat, sum(points(card) for card in cards)) for seat, cards in state.revealed)


def turn_actions(state: State) -> tuple[str, ...]:
    """§4.4 TURN menu. Take discard needs a card to give up; Tamalou! once per round (AMB-TA10)."""
    actions = ["draw"] if can_draw(state) else []
    if count_of(state, state.to_play) > 0:
        actions.append("take_discard")
    if state.caller is None and option(state.options, "call_timing") == "instead_of_turn":
        actions.append("tamalou")
    if can_draw(state):
        actions.append("penalty")
    return tuple(actions)


def drawn_actions(state: State) -> tuple[str, ...]:
    """AMB-TA15: with an empty square the drawn card can only be played."""
    return ("keep", "play") if count_of(state, state.to_play) > 0 else ("play",)


def usable_power(state: State, card: str) -> str | None:
    """The power the played card has now. AMB-TA15: nobody looks at or swaps with an empty square."""
    kind = power(card)
    own = count_of(state, state.to_play) > 0
    opponents = any(count_of(state, s) > 0 for s in state.seats if s != state.current)
    if kind == LOOK_OWN:
        return kind if own else None
    if kind == LOOK_OPPONENT:
        return kind if opponents else None
    if kind == BLIND_SWAP:
        return kind if own and opponents else None
    if kind == LOOK_AND_SWAP and opponents:
        return kind if own else LOOK_OPPONENT
    return None


def swap_targets(state: State) -> tuple[str, ...]:
    """The opponents a J, Q or black K may name for the log (§4.4 POWER)."""
    if state.played is None or usable_power(state, state.played) not in (BLIND_SWAP, LOOK_AND_SWAP):
        return ()
    return tuple(s for s in holders(state) if s != state.current)


def card_name(kind: str) -> Msg | None:
    """A card by rank and suit; the jokers are not in play (TM-01)."""
    return None if kind == "joker" else label(kind)
