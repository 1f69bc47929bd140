"""A game in progress: its accepted-event log, undo and redo (DESIGN.md §3)."""
from __future__ import annotations

from dataclasses import dataclass

from .events import Event
from .outcomes import E_NOT_EXPECTED, Accepted, Outcome, Rejected
from .spec import GameConfig, GameSpec
from .step import step
from .text import msg


@dataclass(frozen=True, slots=True)
class Op:
    """One accepted operation, as the journal records it: an event, an undo or a redo."""

    kind: str            # "event" | "undo" | "redo"
    event: Event | None = None


class Session:
    """States indexed by seq; one undo removes one input event with all its consequences."""

    def __init__(self, spec: GameSpec, config: GameConfig) -> None:
        self.spec = spec
        self.config = config
        self._states = [spec.initial(config)]
        self._events: list[Event] = []
        self._redo: list[Event] = []

    @property
    def state(self):
        return self._states[-1]

    @property
    def events(self) -> tuple[Event, ...]:
        """The effective input events, oldest first."""
        return tuple(self._events)

    def can_undo(self) -> bool:
        return bool(self._events)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def last_event(self) -> Event | None:
        return self._events[-1] if self._events else None

    def play(self, event: Event) -> Outcome:
        """Step the current state; on acceptance record the event and clear redo."""
        outcome = step(self.spec, self.state, event)
        if isinstance(outcome, Accepted):
            self._push(event, outcome.state)
            self._redo.clear()
        return outcome

    def undo(self) -> Outcome:
        if not self._events:
            return Rejected(E_NOT_EXPECTED, msg("core.nothing_to_undo"))
        self._redo.append(self._events.pop())
        self._states.pop()
        return Accepted(self.state, (msg("core.undone"),))

    def redo(self) -> Outcome:
        if not self._redo:
            return Rejected(E_NOT_EXPECTED, msg("core.nothing_to_redo"))
        event = self._redo[-1]
        outcome = step(self.spec, self.state, event)
        if not isinstance(outcome, Accepted):   # cannot happen: replay is deterministic
            return outcome
        self._redo.pop()
        self._push(event, outcome.state)
        return outcome

    def apply_op(self, op: Op) -> Outcome:
        if op.kind == "undo":
            return self.undo()
        if op.kind == "redo":
            return self.redo()
        assert op.event is not None
        return self.play(op.event)

    def _push(self, event: Event, state) -> None:
        self._events.append(event)
        self._states.append(state)

    @classmethod
    def replay(cls, spec: GameSpec, config: GameConfig, ops: list[Op]) -> "Session":
        """Rebuild a session from its ops; a refused op means the log does not fit these rules."""
        session = cls(spec, config)
        for n, op in enumerate(ops, 1):
            outcome = session.apply_op(op)
            if not isinstance(outcome, Accepted):
                raise ValueError(f"op {n} ({op.kind} {op.event or ''}) was refused on replay: "
                                 f"{outcome.code}")
        return session
