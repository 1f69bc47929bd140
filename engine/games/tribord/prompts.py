"""A tribord!: what the table sees (§3.5): each phase's prompt and hint, in the order they come
in play; then the header's badge, the tally and the result."""
from __future__ import annotations

from ...core.options import option
from ...core.outcomes import Option, PlayerLine, Prompt, Result, Tally
from ...core.results import rank
from ...core.table import given
from ...core.text import Msg, msg
from ..auberge.deck import values
from .state import AWAIT_DRAW, COMMON, DECIDE, OUT, OVER, RESHUFFLE, State, status, tokens

# ---- phase by phase: the prompt and the hint ---------------------------------

def prompt(state: State) -> Prompt:
    p = state.current
    if state.phase == COMMON:
        return Prompt(COMMON, msg("at.prompt.common", round=state.round, k=len(state.common)))
    if state.phase == DECIDE:
        choices = ("draw", "block") if tokens(state, state.to_play) > 0 else ("block",)
        return Prompt(DECIDE, decide_text(state), tuple(Option(c, msg(f"at.opt.{c}")) for c in choices))
    if state.phase == AWAIT_DRAW:
        return Prompt("draw", msg("at.prompt.draw", name=p))
    if state.phase == RESHUFFLE:
        return Prompt(RESHUFFLE, msg("at.prompt.reshuffle"))
    return Prompt(OVER, given(result(state)).headline)


def decide_text(state: State) -> Msg:
    """AMB-T12: hints (off by default) say when a draw cannot fail, or cannot succeed."""
    p, pot = state.to_play, state.pot
    if tokens(state, p) == 0:
        return msg("at.prompt.decide_broke", name=p, pot=pot)
    if option(state.options, "hints") and len(values(state.common)) in (0, 10):
        return msg("at.prompt.decide_hint", name=p, pot=pot,
                   hint=msg("at.hint.safe" if not state.common else "at.hint.all_fail"))
    return msg("at.prompt.decide", name=p, pot=pot)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for an event the phase does not take."""
    return msg({COMMON: "at.hint.common", DECIDE: "at.hint.decide", AWAIT_DRAW: "at.hint.draw",
                RESHUFFLE: "at.hint.reshuffle"}.get(state.phase, "core.use_buttons"))


# ---- the tally and the result ------------------------------------------------

def badge(tally: Tally) -> Msg:
    """The header shows the pot and the round."""
    return msg("ui.badge.pot", pot=tally.detail("pot", 0), round=tally.round or 1)


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
