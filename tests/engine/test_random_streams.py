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
from engine import Accepted, Choose, Session, Tap
from engine.core.codec import dumps, from_plain
from engine.core.step import candidate_events


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
            rebuilt = Session(spec, self.session.config)
            for event in self.session.events:
                assert isinstance(rebuilt.play(event), Accepted)
            assert rebuilt.state == self.session.state
            assert not spec.invariants(self.session.state)

        @invariant()
        def state_round_trips(self):
            state = self.session.state
            assert from_plain(spec.state_type, json.loads(dumps(state))) == state

    return GameMachine


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda s: s.id)
def test_random_event_streams(spec):
    machine = machine_for(spec)
    machine.TestCase.settings = settings(max_examples=12, stateful_step_count=25, deadline=None,
                                         suppress_health_check=list(HealthCheck))
    machine.TestCase().runTest()
