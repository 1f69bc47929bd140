"""The header: the game's name and the figure the table glances at, in 21 characters."""
from __future__ import annotations

import pytest

import device.texts  # noqa: F401  (registers the texts shown below)
import engine
from device.ui.game_view import badge, header_name
from device.ui.screen import COLUMNS
from engine.core.outcomes import Tally


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda s: s.id)
def test_every_name_leaves_room_for_a_badge(spec):
    assert len(header_name(spec).text()) <= COLUMNS - len(" Pot 10 R10")


def test_tamalou_reveal_says_whose_square_of_how_many():
    details = (("phase", "reveal"), ("counts", {"P1": 4, "P2": 3, "P3": 4}))
    assert badge(engine.get("tamalou"), Tally((), details, current="P2", round=1)).text() == "Reveal 2/3"


def test_flouk_names_the_resolution_step():
    flouk = engine.get("flouk")
    assert badge(flouk, Tally((), (("turn", 3), ("step", "chief")), round=2)).text() == "R2 T3 Chiefs"
    assert badge(flouk, Tally((), (("turn", 3), ("step", None)), round=2)).text() == "R2 T3"
