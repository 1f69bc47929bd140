"""What the Flouk table sees (§5.4): each phase's prompt and hint, in the order they come in
play; then the header's badge and the tally (the result is scored in scoring.py)."""
from __future__ import annotations

from collections.abc import Callable

from tabletop_kit import Msg, Option, PlayerLine, Prompt, Tally, given, msg

from .effects import (
    FACE_DOWN,
    MAX_REPORT_MOVES,
    SKIP,
    destinations,
    face_down_destinations,
    source_seats,
    sources,
    targets,
)
from .learning import learned_details
from .learning import prompt as learn_prompt
from .scoring import base_population, population, result
from .state import (
    ADJUST,
    CENSUS,
    DEAL,
    EFFECT_CARD,
    EFFECT_TARGET,
    FACE_DOWN_FROM,
    FACE_DOWN_TO,
    LAST,
    LEARN,
    ORDER,
    OVER,
    PILE_CHECK,
    REPORT,
    REPORT_DEST,
    REPORT_FROM,
    REVEAL,
    SURE,
    State,
    decree,
    effect_mode,
    hand,
    label,
    lead,
    place_label,
    type_of,
    village,
)

NO_CARD, DEAL_KEY, END_GAME, PLUS, MINUS = "no_card", "deal", "end_game", "plus", "minus"


# ---- phase by phase: the prompt and the hint ---------------------------------

def players(state: State, seats) -> tuple[Option, ...]:
    return tuple(Option(s, msg("core.name", name=s)) for s in seats)


def places(keys) -> tuple[Option, ...]:
    return tuple(Option(k, place_label(k)) for k in keys)


def deal_text(state: State):
    if state.round == 0:
        return msg("fl.prompt.deal_first2" if len(state.seats) == 2 else "fl.prompt.deal_first")
    return msg("fl.prompt.deal2" if len(state.seats) == 2 else "fl.prompt.deal")


def _reveal(state: State) -> Prompt:
    key = "fl.prompt.reveal_first" if not state.revealed else "fl.prompt.reveal"
    return Prompt("reveal", msg(key, name=state.current, turn=state.turn),
                  (Option(NO_CARD, msg("fl.option.no_card")),))


def _effect_target(state: State) -> Prompt:
    text = msg(f"fl.prompt.target.{effect_mode(state)}", name=state.to_play, card=label(given(state.card)))
    return Prompt("effect_target", text,
                  players(state, targets(state)) + (Option(SKIP, msg("fl.option.skip")),))


def _effect_card(state: State) -> Prompt:
    text = msg(f"fl.prompt.pick.{effect_mode(state)}", name=state.current,
               seats=source_seats(state))
    return Prompt("effect_card", text, (Option(SKIP, msg("fl.option.skip")),))


def _report(state: State) -> Prompt:
    options = (Option(FACE_DOWN, msg("fl.option.face_down")),) \
        if state.moves < MAX_REPORT_MOVES else ()
    return Prompt("report", msg("fl.prompt.report", card=label(given(state.card)), n=state.moves,
                                max=MAX_REPORT_MOVES), options, done=True,
                  done_first=True)


def _adjust(state: State) -> Prompt:
    text = msg("fl.prompt.adjust", name=state.to_play, base=base_population(state, state.to_play),
               pop=population(state, state.to_play))
    return Prompt("decree_adjust", text,
                  (Option(PLUS, msg("fl.option.plus")), Option(MINUS, msg("fl.option.minus"))),
                  done=True)


# Each phase in play order: its prompt, and its hint (the text for an event it does not take).
# RESOLVE is not here: the rules never leave a state in it.
PHASE_TEXTS: dict[str, tuple[Callable[[State], Prompt], str]] = {
    DEAL: (lambda s: Prompt("deal", deal_text(s)), "fl.hint.deal"),
    PILE_CHECK: (lambda s: Prompt("pile_check", msg("fl.prompt.pile_check", n=s.pile),
                                  (Option(DEAL_KEY, msg("fl.option.deal")),
                                   Option(END_GAME, msg("fl.option.end_game")))),
                 "core.use_buttons"),
    REVEAL: (_reveal, "fl.hint.reveal"),
    SURE: (lambda s: Prompt("no_card_sure", msg("fl.prompt.sure", name=s.current, n=hand(s, s.to_play))),
           "fl.hint.sure"),
    ORDER: (lambda s: Prompt("order", msg("fl.prompt.order"),
                             tuple(Option(seat, msg("fl.option.tied", name=seat, card=label(card)))
                                   for seat, card in s.queue[0])),
            "core.use_buttons"),
    LEARN: (learn_prompt, "fl.hint.learn"),
    EFFECT_TARGET: (_effect_target, "core.use_buttons"),
    EFFECT_CARD: (_effect_card, "fl.hint.pick"),
    REPORT: (_report, "fl.report_hint"),
    REPORT_DEST: (lambda s: Prompt("report_dest", msg("fl.prompt.dest", card=label(given(s.moving))),
                                   places(destinations(s))),
                  "core.use_buttons"),
    REPORT_FROM: (lambda s: Prompt("report_from", msg("fl.prompt.from", card=label(given(s.moving))),
                                   places(sources(s))),
                  "core.use_buttons"),
    FACE_DOWN_FROM: (lambda s: Prompt("face_down_from", msg("fl.prompt.face_down_from"), places(sources(s))),
                     "core.use_buttons"),
    FACE_DOWN_TO: (lambda s: Prompt("face_down_to", msg("fl.prompt.face_down_to"),
                                    places(face_down_destinations(s))),
                   "core.use_buttons"),
    LAST: (lambda s: Prompt("last", msg("fl.prompt.last")), "fl.hint.last"),
    CENSUS: (lambda s: Prompt("census", msg("fl.prompt.census", name=s.current, n=len(s.census))),
             "fl.hint.census"),
    ADJUST: (_adjust, "fl.hint.adjust"),
    OVER: (lambda s: Prompt("over", given(result(s)).headline), "core.use_buttons"),
}


# The texts that ask the table to move cards or tokens: they stay on screen until the next
# input.
INSTRUCTIONS = frozenset({
    "fl.flouks_to_villages", "fl.decree", "fl.decree_text", "fl.decree_replaced",
    "fl.welcomed", "fl.welcome_failed", "fl.no_people", "fl.action_discard",
    "fl.by_hand", "fl.by_hand_text", "fl.draw", "fl.steal",
})


def prompt(state: State) -> Prompt:
    return PHASE_TEXTS[state.phase][0](state)


def hint(state: State) -> Msg:
    """The E_NOT_EXPECTED text for a tap or button this phase does not take."""
    return msg(PHASE_TEXTS[state.phase][1] if state.phase in PHASE_TEXTS else "core.use_buttons")


# ---- the tally and the result ------------------------------------------------

def tally(state: State) -> Tally:
    """`score` is the population under the Decree in force (§5.4)."""
    lines = tuple(PlayerLine(s, population(state, s)) for s in state.seats)
    details = (
        ("pile", state.pile), ("turn", state.turn),
        ("lead", lead(state)), ("step", step_asked(state)),
        ("villages", {s: list(village(state, s)) for s in state.seats}),
        ("decrees", {s: decree(state, s) for s in state.seats}),
        ("hands", {s: hand(state, s) for s in state.seats}),
        ("discard", sorted(state.discard)), ("discard_count", state.discard_count),
        ("chief_power_used", sorted(state.chief_power_used)),
        ("revealed", [[s, c] for s, c in state.revealed]),
        ("resolving", state.card), ("queue", [c for group in state.queue for _, c in group]),
    )
    return Tally(lines, details, current=state.current, round=state.round, learned=learned_details(state))


def step_asked(state: State) -> str | None:
    """The step the table is at. A card's people or white number, or the order of a tie, is
    asked before its step begins: the step is the asked card's, not the one just run."""
    if state.phase == LEARN and state.asking:
        return type_of(state.asking[0])
    if state.phase == ORDER and state.queue:
        return type_of(state.queue[0][0][1])
    return state.step


def badge(tally: Tally) -> Msg:
    """Round and turn; while a reveal resolves, the step too ("R2 T3 Chiefs"). Before the
    round's first turn (its deal) only the round: no turn is on yet."""
    round_, turn, step = tally.round or 1, tally.detail("turn", 1), tally.detail("step")
    if not turn:
        return msg("fl.badge.round", round=round_)
    if step:
        return msg("fl.badge.round_turn_step", round=round_, turn=turn, step=msg(f"fl.step.{step}"))
    return msg("fl.badge.round_turn", round=round_, turn=turn)
