"""Hypothesis: random event streams with undo and redo, over every registered game (notes T5).

Any event, legal or not; a refusal leaves the state as it was; replaying the
session's effective events rebuilds exactly its state.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import engine
from device.conformance.playouts import new_session
from engine import Accepted, Choose, Event, Session, Tap, step
from engine.core.codec import dumps, from_plain
from engine.core.step import candidate_events

# What a fresh session of the game replays each run of effective events to. The rules are pure:
# a run replayed once (each of its events accepted) gives the same state every time, so a
# replay starts from the longest run of its events replayed before, not from the start
# again after every step. Every game's session here has the same config: its fewest players.
REPLAYED: dict[tuple[str, tuple[Event, ...]], object] = {}


# The states found to come back from JSON, by id (each kept, so no other takes its id): a
# refused event, an undo or a redo leaves the session on a state it was on before, the same
# frozen object, whose answer cannot have changed.
ROUND_TRIPPED: dict[int, object] = {}


def replayed(spec, config, events: tuple[Event, ...]):
    """The state a fresh Session(spec, config) plays `events` to, each of them accepted."""
    if (spec.id, ()) not in REPLAYED:
        REPLAYED[(spec.id, ())] = Session(spec, config).state
    done = next(n for n in range(len(events), -1, -1) if (spec.id, events[:n]) in REPLAYED)
    state = REPLAYED[(spec.id, events[:done])]
    for n in range(done, len(events)):
        outcome = step(spec, state, events[n])          # what Session.play does with it
        assert isinstance(outcome, Accepted)
        state = REPLAYED[(spec.id, events[:n + 1])] = outcome.state
    return state


def machine_for(spec):
    class GameMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.session = new_session(spec, spec.min_players)

        @rule(data=st.data())
        def any_event(self, data):
            choices = candidate_events(spec, self.session.state) + [Choose("nobody"), Tap("bogus")]
            event = data.draw(st.sampled_from(choices))
            before = dumps(self.session.state)
            seq = self.session.state.seq
            outcome = self.session.play(event)
            if isinstance(outcome, Accepted):
                assert self.session.state.seq == seq + 1
            else:
                assert dumps(self.session.state) == before

        @rule()
        def undo(self):
            self.session.undo()

        @rule()
        def redo(self):
            self.session.redo()

        @invariant()
        def replay_rebuilds_the_state(self):
            assert replayed(spec, self.session.config, self.session.events) == self.session.state
            assert not spec.invariants(self.session.state)

        @invariant()
        def state_round_trips(self):
            state = self.session.state
            if id(state) in ROUND_TRIPPED:    # this very state, after a refusal, undo or redo
                return
            assert from_plain(spec.state_type, json.loads(dumps(state))) == state
            ROUND_TRIPPED[id(state)] = state

    return GameMachine


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda s: s.id)
def test_random_event_streams(spec):
    machine = machine_for(spec)
    machine.TestCase.settings = settings(max_examples=12, stateful_step_count=25, deadline=None,
                                         suppress_health_check=list(HealthCheck))
    machine.TestCase().runTest()
