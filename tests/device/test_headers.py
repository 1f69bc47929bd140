"""The header: the game's name and the figure the table glances at, in 21 characters."""
from __future__ import annotations

import pytest

import device.texts  # noqa: F401  (registers the texts shown below)
import engine
from device.ui.game_view import badge, header_name
from device.ui.screen import COLUMNS


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda s: s.id)
def test_every_name_leaves_room_for_a_badge(spec):
    assert len(header_name(spec).text()) <= COLUMNS - len(" Pot 10 R10")


def test_tamalou_reveal_says_whose_square_of_how_many():
    details = {"phase": "reveal", "counts": {"P1": 4, "P2": 3, "P3": 4}, "current": "P2", "round": 1}
    assert badge("tamalou", details).text() == "Reveal 2/3"


def test_flouk_names_the_resolution_step():
    assert badge("flouk", {"round": 2, "turn": 3, "step": "chief"}).text() == "R2 T3 Chiefs"
    assert badge("flouk", {"round": 2, "turn": 3, "step": None}).text() == "R2 T3"
