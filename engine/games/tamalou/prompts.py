"""What the Tamalou table sees (§4.4): each phase's prompt and hint, in the order they come
in play; then the tally and the result.

Nothing here names a card the device has not seen face up: powers are
instructions, and reveal taps show only how many cards and their sum.
"""
from __future__ import annotations

from collections.abc import Callable

from tabletop_kit import (
    Choose,
    Msg,
    Option,
    PlayerLine,
    Prompt,
    Result,
    Tally,
    Tap,
    current_badge,
    given,
    msg,
    next_seat,
    of,
    option,
    option_of,
    rank,
)

from .scoring import LOOK_AND_SWAP, label, points, round_winners
from .state import (
    CALL,
    DEAL,
    DRAWN,
    GIVE_UP,
    KEEP,
    LAST_SNAPS,
    MISMATCH,
    OPENING,
    OVER,
    PENALTY_WHO,
    PLAYED,
    POWER,
    REVEAL,
    SNAP_WHO,
    TURN,
    State,
    count_of,
    drawn_actions,
    holders,
    last_round,
    match_mode,
    round_scores,
    swap_targets,
    top,
    turn_actions,
    usable_power,
)

# ---- phase by phase: the prompt and the hint ---------------------------------

def players(seats: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(s, msg("core.name", name=s)) for s in seats)


def turn_prompt(state: State) -> Prompt:
    p = state.current
    key = "tm.prompt.last_turn" if last_round(state) else "tm.prompt.turn"
    text = msg(key, name=p, top=label(top(state) or ""))
    options = tuple(Option(k, msg(f"tm.action.{k}")) for k in turn_actions(state))
    return Prompt("turn", text, options)


def power_prompt(state: State) -> Prompt:
    """AMB-TA7: the black King's swap is worded as part of the power, or as a choice."""
    kind = usable_power(state, given(state.played))
    if kind == LOOK_AND_SWAP:
        kind = f"{kind}_{option(state.options, 'black_king_swap')}"
    return Prompt("power", msg(f"tm.power.{kind}", card=label(given(state.played))),
                  players(swap_targets(state)), done=True)


def reveal_prompt(state: State) -> Prompt:
    text = msg("tm.prompt.reveal", name=state.current, k=len(state.tapping),
               n=count_of(state, state.to_play), sum=sum(points(c) for c in state.tapping))
    return Prompt("reveal", text)


# Each phase in play order: its prompt, and its hint (the text for an event it does not take).
PHASE_TEXTS: dict[str, tuple[Callable[[State], Prompt], str]] = {
    OPENING: (lambda s: Prompt("opening", msg("tm.prompt.opening", name=s.first)), "tm.hint.opening"),
    TURN: (turn_prompt, "tm.hint.turn"),
    GIVE_UP: (lambda s: Prompt("take_discard", msg("tm.prompt.give_up", name=s.current)), "tm.hint.give_up"),
    DRAWN: (lambda s: Prompt("drawn", msg("tm.prompt.drawn", name=s.current),
                             tuple(Option(k, msg(f"tm.action.{k}")) for k in drawn_actions(s))),
            "tm.hint.drawn"),
    KEEP: (lambda s: Prompt("keep", msg("tm.prompt.keep", name=s.current)), "tm.hint.discard"),
    PLAYED: (lambda s: Prompt("play", msg("tm.prompt.play", name=s.current)), "tm.hint.discard"),
    POWER: (power_prompt, "tm.hint.power"),
    SNAP_WHO: (lambda s: Prompt("snap", msg("tm.prompt.snap", card=label(given(s.snapped))), players(holders(s))),
               "tm.hint.who"),
    PENALTY_WHO: (lambda s: Prompt("penalty", msg("tm.prompt.penalty"), players(s.seats)), "tm.hint.who"),
    CALL: (lambda s: Prompt("call", msg("tm.prompt.call", name=s.current),
                            (Option("no", msg("tm.no")), Option("yes", msg("tm.yes")))),
           "tm.hint.call"),
    LAST_SNAPS: (lambda s: Prompt("last_snaps", msg("tm.prompt.last_snaps", top=label(top(s) or "")),
                                  closes_after_s=option_of(s.options, "last_snap_s", int) or None),
                 "tm.hint.last_snaps"),
    REVEAL: (reveal_prompt, "tm.hint.reveal"),
    MISMATCH: (lambda s: Prompt("mismatch", msg("tm.prompt.mismatch", n=count_of(s, s.to_play),
                                                 m=len(s.tapping))),
               "tm.hint.mismatch"),
    DEAL: (lambda s: Prompt("deal", msg("tm.prompt.deal", round=s.round, name=next_seat(s.seats, s.first))),
           "tm.hint.deal"),
    OVER: (lambda s: Prompt("over", given(result(s)).headline), "core.use_buttons"),
}


# The texts that ask the table to move cards or tokens: they stay on screen until the next
# input.
INSTRUCTIONS = frozenset({
    "tm.wrong_snap", "tm.wrong_snap_no_card", "tm.penalty", "tm.reshuffle",
})


def prompt(state: State) -> Prompt:
    return PHASE_TEXTS[state.phase][0](state)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for an event the phase does not take."""
    return msg(PHASE_TEXTS[state.phase][1] if state.phase in PHASE_TEXTS else "core.use_buttons")


def event_words(state: State, event) -> Msg | None:
    """An input in Tamalou's words, on the state it was made on: a tap nobody asked for is a
    snap, not the player to move playing a card; "Who discarded?" names the snapper, and the
    penalty prompt the player who draws."""
    if isinstance(event, Tap) and state.phase in (TURN, LAST_SNAPS):
        return msg("tm.undo.snap", card=label(event.card))
    if isinstance(event, Tap) and state.phase == REVEAL:
        return msg("tm.undo.revealed", name=state.current, card=label(event.card))
    if isinstance(event, Choose) and state.phase == SNAP_WHO:
        return msg("tm.undo.snapped", name=event.option, card=label(given(state.snapped)))
    if isinstance(event, Choose) and state.phase == PENALTY_WHO:
        return msg("tm.undo.penalty", name=event.option)
    return None


# ---- the tally and the result ------------------------------------------------

def stage(state: State) -> str:
    """The rules' phase (§4.3): play, last_round, reveal, round_over (match mode) or over."""
    if state.phase == OVER:
        return "over"
    if state.phase == DEAL:
        return "round_over"
    if state.phase in (REVEAL, MISMATCH):
        return "reveal"
    return "last_round" if last_round(state) else "play"


def reminder(state: State):
    """AMB-TA11: with lock_caller the device only reminds the table, through the last round."""
    if option(state.options, "lock_caller") and stage(state) == "last_round":
        return msg("tm.locked", caller=state.caller)
    return None


def tally(state: State) -> Tally:
    """`score` is a square's points once revealed, null before."""
    scores = dict(round_scores(state))
    lines = tuple(PlayerLine(s, scores.get(s)) for s in state.seats)
    details: list[tuple[str, object]] = [("pile", state.pile), ("top", top(state)), ("discard", list(state.discard)),
               ("counts", dict(state.counts)),
               ("caller", state.caller), ("final_queue", list(state.final_queue)),
               ("phase", stage(state))]
    if state.phase in (REVEAL, MISMATCH):
        details.append(("tapped", len(state.tapping)))
    if match_mode(state):
        details += [("match", option(state.options, "match")), ("totals", dict(state.totals))]
    return Tally(lines, tuple(details), current=state.current, round=state.round)


def badge(tally: Tally) -> Msg | None:
    """The header: which square is being revealed, else the round."""
    if tally.detail("phase") == "reveal":
        seats = list(tally.detail("counts"))         # squares are revealed in seat order
        return msg("tm.badge.reveal", i=seats.index(tally.current) + 1, n=len(seats))
    if tally.round:
        return msg("tm.badge.round", round=tally.round)
    return current_badge(tally)


def round_headline(state: State):
    """§4.5 for the round just revealed: the caller's win, the others' win, or no winner."""
    scores = round_scores(state)
    winners = round_winners(scores, given(state.caller), option_of(state.options, "all_must_be_le5", bool))
    if winners == (state.caller,):
        return msg("tm.won_call", name=state.caller, n=of(scores, given(state.caller)))
    if not winners:
        return msg("tm.no_winner", caller=state.caller)
    return msg("tm.failed_call", caller=state.caller, names=winners, n=of(scores, winners[0]))


def result(state: State) -> Result | None:
    """Single round: §4.5's winners. Match: the lowest total; a tie gives co-winners."""
    if state.phase != OVER:
        return None
    if match_mode(state):
        ranking = rank(state.totals, lowest=True)
        return Result(ranking.winners, msg("tm.match_won", names=ranking.winners, n=ranking.best))
    scores = round_scores(state)
    return Result(round_winners(scores, given(state.caller), option_of(state.options, "all_must_be_le5", bool)),
                  round_headline(state))

