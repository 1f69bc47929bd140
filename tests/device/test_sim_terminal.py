"""The simulator's terminal: the largest picture of the frame that fits with the LED, the tones
and the input help in view (below it with the screen's text, or beside it where its letters
read), the text always where the picture's letters cannot be read, a resize drawn anew."""
from __future__ import annotations

import io
import os

import pytest

from device.sim.terminal import BELOW, BESIDE, SimTerminal, layout
from device.ui.render import render
from device.ui.screen import Screen
from hardware.sim_display import braille, halfblocks, quadrants

SCREEN = Screen("TAMALOU", "R1", ("Ann: draw or knock", "Draw", "Knock"), highlight=1,
                menu=(1, 3))


@pytest.mark.parametrize("terminal, picture, feedback", [
    ((200, 50), halfblocks, BELOW),         # room for all
    ((130, 40), halfblocks, BELOW),
    ((130, 35), quadrants, BESIDE),         # half blocks would leave the LED no room
    ((100, 40), quadrants, BELOW),
    ((100, 36), quadrants, BESIDE),         # quadrants read without the text
    ((90, 35), quadrants, BESIDE),
    ((89, 35), braille, BELOW),             # too narrow for the LED beside quadrants
    ((66, 35), braille, BELOW),
    ((80, 24), braille, BELOW),             # an ordinary terminal: braille and the text
    ((80, 23), None, BELOW),                # braille alone would not be read: the text alone
    ((40, 50), None, BELOW),
])
def test_the_largest_picture_that_fits_with_the_feedback_in_view(terminal, picture, feedback):
    assert layout((128, 64), terminal) == (picture, feedback)


def drawn(size, *feedback: str, screen: Screen = SCREEN, typing: tuple[str, ...] = ()) -> list[str]:
    stream = io.StringIO()
    terminal = SimTerminal(stream, size=lambda: size, typing=typing)
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


def test_a_picture_without_its_text_has_the_feedback_beside_it():
    rows = drawn((130, 35), "LED green: ready", "\u266a turn")
    assert len(rows) == 34 and len(rows[0]) == 66 == len(rows[-1])    # quadrants, in 35 rows
    assert rows[1][66:] == "  LED green: ready" and rows[2][66:] == "  \u266a turn"
    assert {len(row) for row in rows[3:]} == {66}
    help_lines = ("Type a line and Enter:", "tap CARD (tap clam#3), press up|down|select|back,")
    rows = drawn((100, 35), "LED green: ready", typing=help_lines)   # no tone yet: the help
    assert [row[68:] for row in rows[1:5]] == ["LED green: ready", "Type a line and Enter:",
                                               "tap CARD (tap clam#3), press",   # wrapped
                                               "up|down|select|back,"]


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


class LateResize(SimTerminal):
    """A resize signalled at the worst moment: just after the draw loop last looked at
    `stale` and found nothing to draw, before the draw is over. Its handler (the keyboard's,
    while a line is awaited) marks the terminal stale and asks for a draw."""

    def __init__(self, *args, **kwargs) -> None:
        self._stale, self.armed = False, False
        super().__init__(*args, **kwargs)

    @property
    def stale(self) -> bool:
        seen = self._stale
        if self.armed and self._drawing and not seen:
            self.armed = False
            self._stale = True                 # the signal's handler, as Keyboard.resized runs it
            self.draw()
        return seen

    @stale.setter
    def stale(self, value: bool) -> None:
        self._stale = value


def test_a_resize_signalled_as_a_draw_ends_is_drawn_at_once():
    stream, size = io.StringIO(), [(200, 50)]
    terminal = LateResize(stream, size=lambda: size[0])
    terminal(render(SCREEN), SCREEN)
    terminal.draw()
    assert len(stream.getvalue().splitlines()) == 34 + 5
    print("\u266a rejected", file=terminal, flush=True)
    size[0], terminal.armed = (80, 24), True
    terminal.draw()                 # draws the tone at 80x24, then the resize lands
    assert not terminal.armed and len(stream.getvalue().splitlines()) == 34 + 5 + 2 * 23


def test_a_frame_cut_short_by_a_signal_is_written_to_its_end(tmp_path, monkeypatch):
    # write(2) interrupted by a resize returns the part written; CPython's buffered writer
    # hands that count back and its text layer drops the rest, so the terminal is written
    # by os.write until all of the frame is out
    calls: list[int] = []
    real_write = os.write

    def interrupted(fd: int, data) -> int:
        calls.append(len(data))
        return real_write(fd, bytes(data[:1000]))       # as a signal would, after 1000 bytes

    monkeypatch.setattr(os, "write", interrupted)
    with open(tmp_path / "terminal", "w", encoding="utf-8") as stream:
        terminal = SimTerminal(stream, size=lambda: (200, 50))
        terminal(render(SCREEN), SCREEN)
        terminal.draw()
    written = (tmp_path / "terminal").read_text(encoding="utf-8")
    assert len(calls) > 1 and written.count("\n") == 34 + 5 and written.endswith("\n")
    assert written.splitlines()[-5].startswith("|")           # the text's header, whole
