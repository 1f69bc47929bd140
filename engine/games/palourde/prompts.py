"""What the Palourde table sees (§1.6): each phase's prompt and hint, in the order they come
in play; then the header's reminder and badge, the tally and the result."""
from __future__ import annotations

from ...core.options import option
from ...core.outcomes import Option, PlayerLine, Prompt, Result, Tally
from ...core.results import rank
from ...core.spec import kind_of
from ...core.table import given
from ...core.text import Msg, msg
from .state import FIRST, FLIP1, FLIP2, JOIN, OVER, SETUP_BEACH, STORM, VICTIM, State, clams_of, eligible_victims

# ---- phase by phase: the prompt and the hint ---------------------------------

def prompt(state: State) -> Prompt:
    p = state.current
    if state.phase == JOIN:
        return Prompt("join", msg("pa.prompt.join", n=len(state.seats)))
    if state.phase == FIRST:
        return Prompt("first", msg("pa.prompt.first"),
                      tuple(Option(s, msg("core.name", name=s)) for s in state.seats))
    if state.phase == SETUP_BEACH:
        return Prompt("beach", msg("pa.prompt.beach"))
    if state.phase == FLIP2:
        return Prompt("flip2", msg("pa.prompt.flip2", name=p))
    if state.phase == VICTIM:
        options = tuple(Option(q, msg("pa.victim_option", name=q, n=clams_of(state, q)))
                        for q in eligible_victims(state))
        return Prompt("victim", msg("pa.prompt.victim", name=p),
                      options + (Option("no_steal", msg("pa.no_steal_option")),))
    if state.phase == STORM:
        tides = "pa.prompt.storm_tides" if option(state.options, "storm_resets_high_tides") else \
            "pa.prompt.storm"
        return Prompt("storm", msg(tides))
    if state.phase == OVER:
        return Prompt("over", given(result(state)).headline)
    return Prompt("flip1", msg("pa.prompt.flip1", name=p))


def hint(state: State):
    """The E_NOT_EXPECTED text for a tap or button the phase does not take."""
    return {
        JOIN: msg("pa.tap_basket"), FIRST: msg("pa.tap_basket"), SETUP_BEACH: msg("core.use_buttons"),
        FLIP1: msg("pa.flip_a_card"), FLIP2: msg("pa.flip_a_card"), VICTIM: msg("pa.choose_victim"),
        STORM: msg("pa.storm_select"),
    }.get(state.phase, msg("core.use_buttons"))


# ---- the tally and the result ------------------------------------------------

def reminder(state: State):
    """The header reminder of AMB-P15, while it applies."""
    if state.peek_reminder and option(state.options, "peek_reminder") and state.phase != OVER:
        return msg("pa.peek_reminder", name=state.peek_reminder)
    return None


def beach_counts(state: State) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for card in state.beach_down:
        counts[kind_of(card)] = counts.get(kind_of(card), 0) + 1
    return tuple(sorted(counts.items()))


def tally(state: State) -> Tally:
    players = tuple(PlayerLine(s, clams_of(state, s)) for s in state.seats)
    details: list[tuple[str, object]] = [("high_tides_up", len(state.ht_up)), ("beach_down", len(state.beach_down)),
               ("peek_reminder", state.peek_reminder)]
    if option(state.options, "show_beach_counts"):
        details.append(("beach_counts", dict(beach_counts(state))))
    return Tally(players, tuple(details), current=state.current)


def badge(tally: Tally) -> Msg:
    """The header counts the High Tides up: the third ends the game (§1.5)."""
    return msg("ui.badge.tide", n=tally.detail("high_tides_up", 0))


def result(state: State) -> Result | None:
    """§1.5 OVER: the most clams wins; ties share the Golden Clam (AMB-P16)."""
    if state.phase != OVER:
        return None
    ranking = rank(((s, clams_of(state, s)) for s in state.seats), option(state.options, "tie_rule"))
    if not ranking.winners:
        return Result((), msg("pa.no_winner"))
    return Result(ranking.winners, msg("pa.golden_clam", names=ranking.winners, n=ranking.best))


