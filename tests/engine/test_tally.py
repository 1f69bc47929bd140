"""The tally's typed fields are what the device reads; the JSON form keeps every detail key."""
from __future__ import annotations

import pytest

from device.conformance.playouts import player_counts, random_playout
from engine.core.outcomes import PlayerLine, Tally
from engine.core.registry import all_specs


@pytest.mark.parametrize("spec", all_specs(), ids=lambda s: s.id)
def test_every_tally_names_whose_turn_it_is_by_attribute(spec):
    seen = []
    random_playout(spec, player_counts(spec)[0], 1, limit=60,
                   on_step=lambda session, rng: seen.append(spec.tally(session.state)))
    for tally in seen:
        assert tally.current is None or tally.current in [p.name for p in tally.players]
        assert tally.round is None or isinstance(tally.round, int)
        assert not {"current", "round", "learned"} & set(dict(tally.details)), spec.id
        assert tally.public()["current"] == tally.current


def test_the_json_details_carry_the_typed_fields_a_game_fills():
    tally = Tally((PlayerLine("Ann", 1),), (("pot", 3),), current="Ann", round=2)
    assert tally.public() == {"pot": 3, "current": "Ann", "round": 2}
    assert Tally((), current=None).public() == {"current": None}     # no round: no key
