"""A tribord!: the state of a table, its house rules, and the queries the rules and the
screen both read."""
from __future__ import annotations

from tabletop_kit import SHARED, TIE_RULES, Options, OptionSpec, Table, of, option_of, record, replace, with_value

# ---- metadata ----------------------------------------------------------------

# Phases (§3.4); each is also its prompt id, but AWAIT_DRAW's prompt is "draw".
COMMON, DECIDE, AWAIT_DRAW, RESHUFFLE, OVER = "common", "decide", "await_draw", "reshuffle", "over"

OPEN, BLOCKED, OUT = "open", "blocked", "out"       # a pirate's status in the round
COMMON_CARDS = 2                                   # §3.4 ROUND_SETUP step 2

OPTIONS = (
    OptionSpec("start_tokens", 10, kind="int", minimum=1, maximum=99, note="§3.1"),
    OptionSpec("initial_pair", "discard", kind="choice", choices=("discard", "redeal"), note="AMB-T6"),
    OptionSpec("last_player_rule", "last_not_out", kind="choice", choices=("last_not_out", "last_open"),
               note="AMB-T3"),
    OptionSpec("button", "rotate", kind="choice", choices=("rotate", "fixed"), note="AMB-T7"),
    OptionSpec("zero_token", "must_block", kind="choice", choices=("must_block",), note="AMB-T8"),
    OptionSpec("tie_rule", SHARED, kind="choice", choices=TIE_RULES, note="AMB-T10"),
    OptionSpec("hints", False, note="AMB-T12"),
)


# ---- the state ---------------------------------------------------------------

@record
class State(Table):
    button: str
    round: int
    tokens: tuple[tuple[str, int], ...]
    pot: int
    common: tuple[str, ...]                   # face up in the centre
    discard: frozenset[str]                   # every card is seen, so ids, not a count
    pile: int
    rstatus: tuple[tuple[str, str], ...]      # open | blocked | out, for this round only
    resume: str | None = None                 # the phase a reshuffle returns to


# ---- helpers -----------------------------------------------------------------

def tokens(state: State, seat: str) -> int:
    return of(state.tokens, seat)


def status(state: State, seat: str) -> str:
    return of(state.rstatus, seat)


def with_status(state: State, seats, new: str) -> State:
    rstatus = state.rstatus
    for seat in seats:
        rstatus = with_value(rstatus, seat, new)
    return replace(state, rstatus=rstatus)


def seats_in(state: State, wanted: str) -> tuple[str, ...]:
    return tuple(s for s in state.seats if status(state, s) == wanted)


def total_tokens(options: Options, players: int) -> int:
    return option_of(options, "start_tokens", int) * players
