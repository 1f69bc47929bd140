"""L'Auberge des pirates: what the table sees (§2.4): each phase's prompt and hint, in the
order they come in play; then the tally and the result."""
from __future__ import annotations

from collections.abc import Callable

from tabletop_kit import Confirm, Msg, Option, PlayerLine, Prompt, Result, Tally, Tap, given, msg

from .deck import card_order
from .state import (
    ACCUSE_TAPS,
    ATTACK_CARD,
    CHALLENGE_CARD,
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


def plain_prompt(state: State) -> Prompt:
    """A prompt of its phase's own words, naming the player and the target."""
    return Prompt(state.phase, msg(f"la.prompt.{state.phase}", name=state.current, target=state.target))


def oldest_prompt(state: State) -> Prompt:
    tied = lowest_openers(state)
    return Prompt(OLDEST, msg("la.prompt.oldest", names=tied), name_options(tied))


def accuse_taps_prompt(state: State) -> Prompt:
    p, t = state.current, state.target
    return Prompt(ACCUSE_TAPS, msg("la.prompt.accuse_taps", name=p, target=t, n=hand(state, given(t)),
                                   k=len(state.accused_taps)))


# Each phase in play order: its prompt, and its hint (the text for an event it does not take).
PHASE_TEXTS: dict[str, tuple[Callable[[State], Prompt], str]] = {
    OPENING: (lambda s: Prompt(OPENING, msg("la.prompt.opening", name=s.current)), "la.hint.tap"),
    OLDEST: (oldest_prompt, "la.hint.oldest"),
    TURN: (lambda s: Prompt(TURN, msg("la.prompt.turn", name=s.current, pile=s.pile),
                            tuple(Option(a, msg(f"la.opt.{a}")) for a in legal_actions(s))),
           "la.hint.turn"),
    TARGET: (lambda s: Prompt(TARGET, msg(f"la.prompt.{s.action}_whom", name=s.current),
                              name_options(targets(s))),
             "la.hint.target"),
    ATTACK_CARD: (plain_prompt, "la.hint.tap"),
    CHALLENGE_CARD: (plain_prompt, "la.hint.tap"),
    ACCUSE_TAPS: (accuse_taps_prompt, "la.hint.accuse"),
    VERDICT: (lambda s: Prompt(VERDICT, msg("la.prompt.verdict", name=s.current, target=s.target),
                               tuple(Option(v, msg(f"la.opt.{v}")) for v in VERDICTS)),
              "la.hint.verdict"),
    RESHUFFLE: (plain_prompt, "la.hint.reshuffle"),
    OVER: (lambda s: Prompt(OVER, given(result(s)).headline), "la.hint.tap"),
}


# The texts that ask the table to move cards or tokens: they stay on screen until the next
# input.
INSTRUCTIONS = frozenset({
    "la.discard_all", "la.discard_all_next", "la.draw",
})


def prompt(state: State) -> Prompt:
    return PHASE_TEXTS[state.phase][0](state)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for an event the phase does not take."""
    text = PHASE_TEXTS[state.phase][1] if state.phase in PHASE_TEXTS else "la.hint.tap"
    return msg(text, name=state.current)


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
    """§2.4: the last pirate in wins; nobody else scores and there is no tie. The others place
    by how long they stayed in: the last out second."""
    if state.phase != OVER:
        return None
    return Result((state.to_play,), msg("la.wins", name=state.current),
                  places=(state.to_play,) + state.out[::-1])
