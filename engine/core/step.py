"""The generic step pipeline every game runs through.

game over -> card identity -> event allowed in this phase -> the game's own
checks and effects -> invariants -> seq + 1. Every stage before the game's
`play` only reads; `play` is pure; so a rejection can never change the state.
"""
from __future__ import annotations

from .events import Cancel, Choose, Confirm, Event, Tap
from .outcomes import (
    E_GAME_OVER,
    E_NOT_EXPECTED,
    E_UNKNOWN_CARD,
    E_WRONG_GAME,
    Accepted,
    Info,
    Outcome,
    Rejected,
)
from .records import replace
from .registry import canonical_card, decks_of
from .spec import GameSpec, Played
from .text import msg


class EngineBug(RuntimeError):
    """A state broke an invariant: a programming error, never a player's."""


def step(spec: GameSpec, state, event: Event) -> Outcome:
    """Apply one input event to a state; never raises for anything a player does."""
    if spec.result(state) is not None:
        return Rejected(E_GAME_OVER, msg("core.game_over"))
    outcome = played(spec, state, event)
    if isinstance(outcome, (Rejected, Info)):
        return outcome
    new_state, effects = outcome
    return Accepted(replace(new_state, seq=state.seq + 1), tuple(effects))


def played(spec: GameSpec, state, event: Event) -> Played:
    """The stages between the game-over check and the count of `seq`: a refusal, a look, or
    the game's new state (its `seq` not yet counted) and effects, the invariants held."""
    if isinstance(event, Tap) and event.card not in spec.own_cards:
        # another spelling or another game's card: every game's deck is looked at (a tap of
        # the game's own id needs none of them, so replaying a journal loads no other game)
        card = canonical_card(event.card)
        if card is None:
            return Rejected(E_UNKNOWN_CARD, msg("core.unknown_card"))
        if spec.deck not in decks_of(card):
            family = sorted(decks_of(card))[0]
            return Rejected(E_WRONG_GAME, msg("core.wrong_game", deck=msg(f"deck.{family}")))
        event = Tap(card)
    if type(event) not in spec.allowed(state):
        return Rejected(E_NOT_EXPECTED, spec.hint(state))
    outcome = spec.play(state, event)
    if isinstance(outcome, (Rejected, Info)):
        return outcome
    problems = spec.invariants(outcome[0])
    if problems:
        raise EngineBug(f"{spec.id} after {event}: {'; '.join(problems)}")
    return outcome


def candidate_events(spec: GameSpec, state) -> list[Event]:
    """Every event worth trying now: each card of the game, each menu key, SELECT, BACK."""
    events: list[Event] = list(spec.taps)
    events += [Choose(key) for key in spec.prompt(state).keys()]
    events += [Confirm(), Cancel()]
    return events


def legal_events(spec: GameSpec, state) -> list[Event]:
    """The accepted events among the candidates, in a stable order: one source of truth.
    `step` refuses an event of a kind the phase does not take before anything else it asks of
    the game, so those are left out without asking: a phase that takes no card would otherwise
    word its hint once for every card of the deck."""
    if spec.result(state) is not None:
        return []
    allowed = spec.allowed(state)
    # step() but for the count of seq, which an event tried and dropped has no use for: the
    # game is not over (asked once above), so played() answers as step() would
    return [e for e in candidate_events(spec, state)
            if type(e) in allowed and not isinstance(played(spec, state, e), (Rejected, Info))]
