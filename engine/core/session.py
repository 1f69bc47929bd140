"""A game in progress: its accepted-event log, undo and redo."""
from __future__ import annotations

from .events import Event
from .outcomes import E_NOT_EXPECTED, Accepted, Outcome, Rejected
from .record import record
from .spec import GameConfig, GameSpec
from .step import step
from .text import msg


@record
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

    def first_player(self) -> str | None:
        """Who started: the setup's choice, else the first seat a state addressed (Palourde's
        youngest, named in its own setup; the first seat where nobody was asked)."""
        if self.config.first is not None:
            return self.config.first
        currents = (self.spec.tally(state).current for state in self._states)
        return next((seat for seat in currents if seat is not None), None)

    def can_undo(self) -> bool:
        return bool(self._events)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def last_event(self) -> Event | None:
        return self._events[-1] if self._events else None

    def state_before_last(self):
        """The state the last input was made on (what its prompt asked, and of whom)."""
        return self._states[-2] if self._events else None

    def propose(self, op: Op) -> Outcome:
        """What `op` would answer, changing nothing: the caller saves an accepted answer first,
        then `commit`s it (an operation that cannot be saved is never taken)."""
        if op.kind == "undo":
            if not self._events:
                return Rejected(E_NOT_EXPECTED, msg("core.nothing_to_undo"))
            return Accepted(self._states[-2], (msg("core.undone"),))
        if op.kind == "redo":
            if not self._redo:
                return Rejected(E_NOT_EXPECTED, msg("core.nothing_to_redo"))
            return step(self.spec, self.state, self._redo[-1])
        assert op.event is not None
        return step(self.spec, self.state, op.event)

    def commit(self, op: Op, outcome: Outcome) -> None:
        """Take an accepted answer of `propose(op)`, proposed on the current state."""
        assert isinstance(outcome, Accepted)
        if op.kind == "undo":
            self._redo.append(self._events.pop())
            self._states.pop()
        elif op.kind == "redo":
            self._push(self._redo.pop(), outcome.state)
        else:
            assert op.event is not None
            self._push(op.event, outcome.state)
            self._redo.clear()

    def apply_op(self, op: Op) -> Outcome:
        """Propose and commit at once: for replays, where nothing needs saving first."""
        outcome = self.propose(op)
        if isinstance(outcome, Accepted):
            self.commit(op, outcome)
        return outcome

    def play(self, event: Event) -> Outcome:
        """Step the current state; on acceptance record the event and clear redo."""
        return self.apply_op(Op("event", event))

    def undo(self) -> Outcome:
        return self.apply_op(Op("undo"))

    def redo(self) -> Outcome:
        return self.apply_op(Op("redo"))

    def _push(self, event: Event, state) -> None:
        self._events.append(event)
        self._states.append(state)

    @classmethod
    def replay(cls, spec: GameSpec, config: GameConfig, ops: list[Op]) -> Session:
        """Rebuild a session from its ops; a refused op means the log does not fit these rules."""
        session = cls(spec, config)
        for n, op in enumerate(ops, 1):
            outcome = session.apply_op(op)
            if not isinstance(outcome, Accepted):
                why = outcome.code if isinstance(outcome, Rejected) else "not an input"
                raise ValueError(f"op {n} ({op.kind} {op.event or ''}) was refused on replay: {why}")
        return session
