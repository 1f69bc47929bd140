"""What the Palourde table sees (§1.6): each phase's prompt and hint, in the order they come
in play; then the header's reminder and badge, the tally and the result."""
from __future__ import annotations

from collections.abc import Callable

from tabletop_kit import Msg, Option, PlayerLine, Prompt, Result, Tally, given, kind_of, msg, option, rank

from .state import FIRST, FLIP1, FLIP2, JOIN, OVER, SETUP_BEACH, STORM, VICTIM, State, clams_of, eligible_victims

# ---- phase by phase: the prompt and the hint ---------------------------------

def victim_prompt(state: State) -> Prompt:
    options = tuple(Option(q, msg("pa.victim_option", name=q, n=clams_of(state, q)))
                    for q in eligible_victims(state))
    return Prompt("victim", msg("pa.prompt.victim", name=state.current),
                  options + (Option("no_steal", msg("pa.no_steal_option")),))


def storm_prompt(state: State) -> Prompt:
    tides = "pa.prompt.storm_tides" if option(state.options, "storm_resets_high_tides") else \
        "pa.prompt.storm"
    return Prompt("storm", msg(tides))


# Each phase in play order: its prompt, and its hint (the text for an event it does not take).
PHASE_TEXTS: dict[str, tuple[Callable[[State], Prompt], str]] = {
    JOIN: (lambda s: Prompt("join", msg("pa.prompt.join", n=len(s.seats))), "pa.tap_basket"),
    FIRST: (lambda s: Prompt("first", msg("pa.prompt.first"),
                             tuple(Option(seat, msg("core.name", name=seat)) for seat in s.seats)),
            "pa.tap_basket"),
    SETUP_BEACH: (lambda s: Prompt("beach", msg("pa.prompt.beach")), "core.use_buttons"),
    FLIP1: (lambda s: Prompt("flip1", msg("pa.prompt.flip1", name=s.current)), "pa.flip_a_card"),
    FLIP2: (lambda s: Prompt("flip2", msg("pa.prompt.flip2", name=s.current)), "pa.flip_a_card"),
    VICTIM: (victim_prompt, "pa.choose_victim"),
    STORM: (storm_prompt, "pa.storm_select"),
    OVER: (lambda s: Prompt("over", given(result(s)).headline), "core.use_buttons"),
}


# The texts that ask the table to move cards: they stay on screen until the next input.
INSTRUCTIONS = frozenset({
    "pa.high_tide", "pa.high_tide_second", "pa.overboard", "pa.overboard_empty", "pa.clam_pair",
    "pa.clam_rake", "pa.crab_pair", "pa.shrimp", "pa.bird", "pa.no_match", "pa.no_clams_to_steal",
    "pa.stolen",
})


def prompt(state: State) -> Prompt:
    return PHASE_TEXTS[state.phase][0](state)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for a tap or button the phase does not take."""
    return msg(PHASE_TEXTS[state.phase][1] if state.phase in PHASE_TEXTS else "core.use_buttons")


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
    return msg("pa.badge.tide", n=tally.detail("high_tides_up", 0))


def result(state: State) -> Result | None:
    """§1.5 OVER: the most clams wins; ties share the Golden Clam (AMB-P16)."""
    if state.phase != OVER:
        return None
    ranking = rank(((s, clams_of(state, s)) for s in state.seats), option(state.options, "tie_rule"))
    if not ranking.winners:
        return Result((), msg("pa.no_winner"))
    return Result(ranking.winners, msg("pa.golden_clam", names=ranking.winners, n=ranking.best))


