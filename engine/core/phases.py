"""A game's reducer as one table: for each phase, the handler of each event type it takes.

The one table answers both questions step() asks of a game:
which event types the current phase allows, and what an allowed event does.
A phase that takes nothing (the game over) still has its row, so the table
also lists every phase of the game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Handler = Callable[[Any, Any], Any]     # (state, event) -> Rejected | Info | (state, effects)


class PhaseTable:
    def __init__(self, handlers: Mapping[str, Mapping[type, Handler]]):
        self.handlers = handlers
        # step() asks on every tap: answer from a precomputed set, not a new one each time.
        self._allowed = {phase: frozenset(by_type) for phase, by_type in handlers.items()}

    def __contains__(self, phase: str) -> bool:
        return phase in self.handlers

    def allowed(self, state) -> frozenset[type]:
        """The event types the state's phase takes."""
        return self._allowed[state.phase]

    def play(self, state, event):
        """Run the handler of the event; step() has already checked that the phase takes it."""
        return self.handlers[state.phase][type(event)](state, event)


# Most handlers read one thing of the event; these adapt them to the table's (state, event).

def on_card(handler: Callable[[Any, str], Any]) -> Handler:
    """A Tap handler that takes the tapped card id."""
    return lambda state, event: handler(state, event.card)


def on_option(handler: Callable[[Any, str], Any]) -> Handler:
    """A Choose handler that takes the chosen menu key."""
    return lambda state, event: handler(state, event.option)


def on_button(handler: Callable[[Any], Any]) -> Handler:
    """A Confirm or Cancel handler that needs only the state."""
    return lambda state, event: handler(state)
