"""A game's reducer as one table: for each phase, the handler of each event type it takes.

The one table answers both questions step() asks of a game:
which event types the current phase allows, and what an allowed event does.
A phase that takes nothing (the game over) still has its row, so the table
also lists every phase of the game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from .spec import Played


class Phased(Protocol):
    """A state that names its phase: every game's (engine.core.table.Table)."""

    @property
    def phase(self) -> str: ...


S = TypeVar("S", bound=Phased)

# (state, event) -> Rejected | Info | (state, effects). The event is the type the table files
# the handler under (a Tap handler is given a Tap), which a mapping keyed by type cannot say.
Handler = Callable[[S, Any], Played[S]]


class PhaseTable(Generic[S]):
    def __init__(self, handlers: Mapping[str, Mapping[type, Handler[S]]]):
        self.handlers = handlers
        # step() asks on every tap: answer from a precomputed set, not a new one each time.
        self._allowed = {phase: frozenset(by_type) for phase, by_type in handlers.items()}

    def __contains__(self, phase: str) -> bool:
        return phase in self.handlers

    def allowed(self, state: S) -> frozenset[type]:
        """The event types the state's phase takes."""
        return self._allowed[state.phase]

    def play(self, state: S, event: Any) -> Played[S]:
        """Run the handler of the event; step() has already checked that the phase takes it."""
        return self.handlers[state.phase][type(event)](state, event)


# Most handlers read one thing of the event; these adapt them to the table's (state, event).

def on_card(handler: Callable[[S, str], Played[S]]) -> Handler[S]:
    """A Tap handler that takes the tapped card id."""
    return lambda state, event: handler(state, event.card)


def on_option(handler: Callable[[S, str], Played[S]]) -> Handler[S]:
    """A Choose handler that takes the chosen menu key."""
    return lambda state, event: handler(state, event.option)


def on_button(handler: Callable[[S], Played[S]]) -> Handler[S]:
    """A Confirm or Cancel handler that needs only the state."""
    return lambda state, event: handler(state)
