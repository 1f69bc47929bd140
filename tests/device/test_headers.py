"""The header: the game's name and the figure the table glances at, in 21 characters."""
from __future__ import annotations

import pytest

import device.texts  # noqa: F401  (registers the texts shown below)
import engine
from device.ui.game_view import badge, header_name
from device.ui.screen import COLUMNS
from engine.core.outcomes import Tally

from .table import Table


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


# Flouk's first two turns (the frames' deal): three Flouks, then two Chiefs and a Decree.
TURN_1 = "press select\nwait 2\ntap mouta#1\ntap faar#1\ntap bloup#1\nwait 2\n"


def test_a_message_keeps_the_header_of_the_step_it_tells(tmp_path):
    """The last reveal runs the Decree step and stops at the Chiefs' white numbers: the Decree
    message is shown under the turn's header, not the Chiefs step the game has moved on to."""
    table = Table(tmp_path).start("flouk")
    table.run(TURN_1 + "tap chief_mouta#1\ntap decree#2")
    assert table.text.splitlines()[0] == "|FLOUK           R1 T2|"
    table.run("tap chief_faar#1")
    shown = table.text.splitlines()
    assert shown[0] == "|FLOUK           R1 T2|"
    assert "P2: new Decree" in table.text
    assert table.screens[-1].header_right == "R1 T2"      # the frame the display drew
    table.run("wait 4")                                    # an instruction: it stays, as it was
    assert table.text.splitlines() == shown
    table.run("press back")
    assert table.text.splitlines()[:3] == ["|FLOUK    R1 T2 Chiefs|", "  Mouta Chief:", "  white number?"]
