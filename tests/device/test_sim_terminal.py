"""The simulator's terminal: the largest picture of the frame that fits, the screen's text
where the picture's letters cannot be read, the LED and tones beside it, a resize drawn anew."""
from __future__ import annotations

import io

import pytest

from device.sim.terminal import SimTerminal, layout
from device.ui.render import render
from device.ui.screen import Screen
from hardware.sim_display import braille, halfblocks, quadrants

SCREEN = Screen("TAMALOU", "R1", ("Ann: draw or knock", "Draw", "Knock"), highlight=1,
                menu=(1, 3))


@pytest.mark.parametrize("terminal, picture, text", [
    ((200, 50), halfblocks, True),          # room for all
    ((130, 35), halfblocks, False),         # half blocks read without the text
    ((100, 40), quadrants, True),
    ((100, 36), quadrants, False),          # so do quadrants
    ((80, 24), braille, True),              # an ordinary terminal: braille and the text
    ((80, 23), None, True),                 # braille alone would not be read: the text alone
    ((40, 50), None, True),
])
def test_the_largest_picture_that_fits_and_the_text_where_it_is_needed(terminal, picture, text):
    assert layout((128, 64), terminal) == (picture, text)


def drawn(size, *feedback: str, screen: Screen = SCREEN) -> list[str]:
    stream = io.StringIO()
    terminal = SimTerminal(stream, size=lambda: size)
    for line in feedback:
        print(line, file=terminal, flush=True)
    terminal(render(screen), screen)
    terminal.draw()
    return stream.getvalue().split("\n")[:-1]


def test_an_80x24_terminal_gets_the_picture_and_the_screens_text_in_23_rows():
    rows = drawn((80, 24), "LED blue: card seen", "\u266a accepted", "LED amber: your turn")
    assert len(rows) == 23 and {len(row) for row in rows[:18]} == {66}
    assert rows[18:] == [
        f"|TAMALOU{' ' * 12}R1|   LED amber: your turn",
        "  Ann: draw or knock      \u266a accepted",
        "> Draw",
        "  Knock",
        ""]


def test_a_picture_without_its_text_has_the_feedback_above_it():
    rows = drawn((130, 35), "\u266a turn")
    assert rows[0] == "\u266a turn" and len(rows) == 1 + 34 and len(rows[1]) == 130


def test_a_frame_is_drawn_again_only_when_something_changed_or_the_terminal_was_resized():
    stream, size = io.StringIO(), [(200, 50)]
    terminal = SimTerminal(stream, size=lambda: size[0])
    terminal(render(SCREEN), SCREEN)
    terminal.draw()
    terminal.draw()                                   # nothing new
    assert len(stream.getvalue().splitlines()) == 34 + 5
    print("\u266a rejected", file=terminal, flush=True)
    terminal.draw()                                   # a tone: the same frame, with it
    assert len(stream.getvalue().splitlines()) == 2 * (34 + 5)
    size[0], terminal.stale = (80, 24), True
    terminal.draw()
    assert len(stream.getvalue().splitlines()) == 2 * (34 + 5) + 23
