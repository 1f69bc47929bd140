"""L'Auberge des pirates: what the table sees (§2.4): each phase's prompt and hint, in the
order they come in play; then the tally and the result."""
from __future__ import annotations

from ...core.events import Confirm, Tap
from ...core.outcomes import Option, PlayerLine, Prompt, Result, Tally
from ...core.table import given
from ...core.text import Msg, msg
from .deck import card_order
from .state import (
    ACCUSE_TAPS,
    OLDEST,
    OPENING,
    OVER,
    RESHUFFLE,
    TARGET,
    TURN,
    VERDICT,
    VERDICTS,
    State,
    hand,
    legal_actions,
    lowest_openers,
    targets,
)

# ---- phase by phase: the prompt and the hint ---------------------------------

def name_options(names: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(s, msg("core.name", name=s)) for s in names)


def prompt(state: State) -> Prompt:
    p, t = state.current, state.target
    if state.phase == OPENING:
        return Prompt(OPENING, msg("la.prompt.opening", name=p))
    if state.phase == OLDEST:
        tied = lowest_openers(state)
        return Prompt(OLDEST, msg("la.prompt.oldest", names=tied), name_options(tied))
    if state.phase == TURN:
        return Prompt(TURN, msg("la.prompt.turn", name=p, pile=state.pile),
                      tuple(Option(a, msg(f"la.opt.{a}")) for a in legal_actions(state)))
    if state.phase == TARGET:
        return Prompt(TARGET, msg(f"la.prompt.{state.action}_whom", name=p), name_options(targets(state)))
    if state.phase == ACCUSE_TAPS:
        return Prompt(ACCUSE_TAPS, msg("la.prompt.accuse_taps", name=p, target=t, n=hand(state, given(t)),
                                       k=len(state.accused_taps)))
    if state.phase == VERDICT:
        return Prompt(VERDICT, msg("la.prompt.verdict", name=p, target=t),
                      tuple(Option(v, msg(f"la.opt.{v}")) for v in VERDICTS))
    if state.phase == OVER:
        return Prompt(OVER, given(result(state)).headline)
    return Prompt(state.phase, msg(f"la.prompt.{state.phase}", name=p, target=t))


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for an event the phase does not take."""
    texts = {OLDEST: "la.hint.oldest", TURN: "la.hint.turn", TARGET: "la.hint.target",
             RESHUFFLE: "la.hint.reshuffle", ACCUSE_TAPS: "la.hint.accuse", VERDICT: "la.hint.verdict"}
    return msg(texts.get(state.phase, "la.hint.tap"), name=state.current)


def event_words(state: State, event) -> Msg | None:
    """The accused's taps and SELECT, in the undo question: the accused's, not the accuser's
    whose turn it is, and the hidden hand never named."""
    if state.phase != ACCUSE_TAPS:
        return None
    if isinstance(event, Tap):
        return msg("la.undo.accused_tap", name=state.target)
    if isinstance(event, Confirm):
        return msg("la.undo.hand_shown", name=state.target)
    return None


# ---- the tally and the result ------------------------------------------------

def tally(state: State) -> Tally:
    """§6.2: no scores; `out` is eliminated. The accused hand's values never appear."""
    players = tuple(PlayerLine(s, None, s in state.out) for s in state.seats)
    details = (("pile", state.pile), ("discard", state.discard),
               ("discard_seen", sorted(state.out_uids, key=card_order)),
               ("hands", dict(state.hands)), ("fronts", {s: list(row) for s, row in state.fronts}),
               ("accused_tapped", len(state.accused_taps)))
    return Tally(players, details, current=state.current)


def result(state: State) -> Result | None:
    """§2.4: the last pirate in wins; nobody else scores and there is no tie."""
    if state.phase != OVER:
        return None
    return Result((state.to_play,), msg("la.wins", name=state.current))
