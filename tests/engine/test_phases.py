"""Each game's phase table is the one source of its phases and of what each allows."""
from __future__ import annotations

import engine
from engine.core.events import Choose, Confirm, Tap
from engine.core.phases import PhaseTable, on_button, on_card, on_option
from engine.games.auberge import auberge
from engine.games.auberge import state as auberge_state
from engine.games.flouk import flouk
from engine.games.flouk import state as flouk_state


def test_the_table_answers_allowed_and_play():
    table = PhaseTable({"open": {Tap: on_card(lambda s, card: card), Choose: on_option(lambda s, key: key),
                                 Confirm: on_button(lambda s: "done")}, "over": {}})

    class State:
        phase = "open"

    assert table.allowed(State) == frozenset({Tap, Choose, Confirm})
    assert (table.play(State, Tap("x")), table.play(State, Choose("k")), table.play(State, Confirm())) \
        == ("x", "k", "done")
    assert "over" in table and "nowhere" not in table


def test_each_spec_asks_its_table():
    for spec in engine.all_specs():
        assert isinstance(spec.allowed.__self__, PhaseTable), spec.id


def test_declared_phase_lists_match_the_tables():
    assert set(flouk_state.PHASES) == set(flouk.TABLE.handlers)
    assert set(auberge_state.PHASES) == set(auberge.TABLE.handlers)
