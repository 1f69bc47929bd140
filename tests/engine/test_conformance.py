"""Conformance suite over every registered game.

Seeded random legal playouts; random illegal events leave state and seq unchanged;
undo to the start and redo to the end; JSON round-trips; invariants hold.
"""
from __future__ import annotations

import json

import pytest

import engine
from engine import Accepted, Cancel, Choose, Confirm, Rejected, Tap, legal_events, step
from engine.core.codec import dumps, from_plain
from engine.core.events import event_from_json, event_from_string, event_to_json
from engine.core.outcomes import CODES, Info
from engine.core.registry import decks_of

from .playouts import all_games, player_counts, random_playout

SEEDS = range(3)
CASES = [(spec, n, seed) for spec in all_games() for n in player_counts(spec) for seed in SEEDS]
IDS = [f"{spec.id}-{n}p-seed{seed}" for spec, n, seed in CASES]



def foreign(deck: str) -> str:
    """A card of another registered deck that `deck` does not hold."""
    return next(card for spec in engine.all_specs() if spec.deck != deck for card in spec.card_ids()
                if deck not in decks_of(card))


def illegal_candidates(spec, state, rng):
    """Events that must be refused: garbage choices, unknown and foreign cards, illegal picks."""
    picks = [Tap("no_such_card"), Tap(foreign(spec.deck)), Choose("no-such-option")]
    legal = set(legal_events(spec, state))
    others = [e for e in [Tap(c) for c in rng.sample(spec.card_ids(), 5)] + [Confirm(), Cancel()]
              if e not in legal]
    return picks + others


def check_illegal(spec, state, rng):
    before = dumps(state)
    for event in illegal_candidates(spec, state, rng):
        outcome = step(spec, state, event)
        assert not isinstance(outcome, Accepted), f"{event} accepted but not legal"
        if isinstance(outcome, Rejected):
            assert outcome.code in CODES and outcome.message
        else:
            assert isinstance(outcome, Info)
        assert dumps(state) == before


def check_done(spec, state):
    """A prompt with options says whether Done is taken beside them: the device shows a Done
    item from the prompt alone, never from a trial step."""
    prompt = spec.prompt(state)
    if prompt.options:
        taken = isinstance(step(spec, state, Confirm()), Accepted)
        assert prompt.done == taken, f"{prompt.id}: done={prompt.done}, Confirm taken={taken}"


def check_round_trips(spec, state, events):
    assert from_plain(spec.state_type, json.loads(dumps(state))) == state
    for event in events:
        assert event_from_json(event_to_json(event)) == event
        assert event_from_string(str(event)) == event


@pytest.mark.parametrize("spec,players,seed", CASES, ids=IDS)
def test_random_playout(spec, players, seed):
    seen_states = []

    def on_step(session, rng):
        state = session.state
        seen_states.append(state)
        check_done(spec, state)
        if len(seen_states) % 7 == 1:   # sampled: the full check on every step is slow for Flouk
            check_illegal(spec, state, rng)
            check_round_trips(spec, state, legal_events(spec, state))

    session = random_playout(spec, players, seed, on_step=on_step)
    state = session.state
    assert spec.result(state) is not None, f"{spec.id} did not end within {spec.max_events} events"
    assert state.seq == len(session.events) <= spec.max_events
    assert not spec.invariants(state)
    assert not legal_events(spec, state)
    result = spec.result(state)
    assert set(result.winners) <= {p.name for p in spec.tally(state).players}
    assert step(spec, state, Confirm()).code == "E_GAME_OVER"
    check_undo_redo(session, seen_states + [state])


def check_undo_redo(session, states):
    """Undo to the very start, then redo to the end, passing through every recorded state."""
    end = dumps(session.state)
    for expected in reversed(states[:-1]):
        assert isinstance(session.undo(), Accepted)
        assert session.state == expected
    assert isinstance(session.undo(), Rejected)
    while session.can_redo():
        assert isinstance(session.redo(), Accepted)
    assert dumps(session.state) == end


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.id)
def test_spec_metadata(spec):
    assert spec.min_players <= spec.max_players
    assert len(set(spec.card_ids())) == len(spec.card_ids())
    assert all(o.parse(o.default) == o.default for o in spec.options)


def test_every_deck_has_a_foreign_card():
    for deck in {spec.deck for spec in engine.all_specs()}:
        assert deck not in decks_of(foreign(deck))
