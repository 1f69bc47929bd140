"""A tribord!: what the table sees (§3.5): each phase's prompt and hint, in the order they come
in play; then the header's badge, the tally and the result."""
from __future__ import annotations

from collections.abc import Callable

from tabletop_kit import Msg, Option, PlayerLine, Prompt, Result, Tally, given, msg, option, rank

from ..auberge.deck import values
from .state import AWAIT_DRAW, COMMON, DECIDE, OUT, OVER, RESHUFFLE, State, status, tokens

# ---- phase by phase: the prompt and the hint ---------------------------------

def decide_prompt(state: State) -> Prompt:
    choices = ("draw", "block") if tokens(state, state.to_play) > 0 else ("block",)
    return Prompt(DECIDE, decide_text(state), tuple(Option(c, msg(f"at.opt.{c}")) for c in choices))


def decide_text(state: State) -> Msg:
    """AMB-T12: hints (off by default) say when a draw cannot fail, or cannot succeed."""
    p, pot = state.to_play, state.pot
    if tokens(state, p) == 0:
        return msg("at.prompt.decide_broke", name=p, pot=pot)
    if option(state.options, "hints") and len(values(state.common)) in (0, 10):
        return msg("at.prompt.decide_hint", name=p, pot=pot,
                   hint=msg("at.hint.safe" if not state.common else "at.hint.all_fail"))
    return msg("at.prompt.decide", name=p, pot=pot)


# Each phase in play order: its prompt, and its hint (the text for an event it does not take).
PHASE_TEXTS: dict[str, tuple[Callable[[State], Prompt], str]] = {
    COMMON: (lambda s: Prompt(COMMON, msg("at.prompt.common", round=s.round, k=len(s.common))),
             "at.hint.common"),
    DECIDE: (decide_prompt, "at.hint.decide"),
    AWAIT_DRAW: (lambda s: Prompt("draw", msg("at.prompt.draw", name=s.current)), "at.hint.draw"),
    RESHUFFLE: (lambda s: Prompt(RESHUFFLE, msg("at.prompt.reshuffle")), "at.hint.reshuffle"),
    OVER: (lambda s: Prompt(OVER, given(result(s)).headline), "core.use_buttons"),
}


# The texts that ask the table to move cards or tokens: they stay on screen until the next
# input.
INSTRUCTIONS = frozenset({
    "at.pair_discarded", "at.pair_redeal", "at.ante", "at.failed",
    "at.takes", "at.round_over", "at.button_moves",
})


def prompt(state: State) -> Prompt:
    return PHASE_TEXTS[state.phase][0](state)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for an event the phase does not take."""
    return msg(PHASE_TEXTS[state.phase][1] if state.phase in PHASE_TEXTS else "core.use_buttons")


# ---- the tally and the result ------------------------------------------------

def badge(tally: Tally) -> Msg:
    """The header shows the pot and the round."""
    return msg("at.badge.pot", pot=tally.detail("pot", 0), round=tally.round or 1)


def tally(state: State) -> Tally:
    """§6.2: scores are tokens; `out` is out of the current round."""
    players = tuple(PlayerLine(s, tokens(state, s), status(state, s) == OUT) for s in state.seats)
    details = (("pot", state.pot), ("pile", state.pile), ("button", state.button),
               ("common", list(state.common)), ("discard", len(state.discard)),
               ("status", dict(state.rstatus)))
    return Tally(players, details, current=state.current, round=state.round)


def result(state: State) -> Result | None:
    """The most tokens wins; equal leaders share the win, or nobody does (AMB-T10)."""
    if state.phase != OVER:
        return None
    ranking = rank(((s, tokens(state, s)) for s in state.seats), option(state.options, "tie_rule"))
    if not ranking.tied:
        return Result(ranking.winners, msg("at.wins", name=ranking.winners[0], n=ranking.best))
    if not ranking.winners:
        return Result((), msg("at.no_winner", names=ranking.leaders, n=ranking.best))
    return Result(ranking.winners, msg("at.wins_shared", names=ranking.winners, n=ranking.best))
