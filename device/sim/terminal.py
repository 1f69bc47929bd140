"""The simulator on a terminal: the 128x64 frame as large as the terminal allows with the
LED, the tones and what a person may type always in view, and the screen's text where the
picture's letters are too small to read.

The picture is the largest drawing whose framed box fits the terminal with that feedback:
half blocks (1x2 pixels a cell: 130 columns, 34 rows), quadrants (2x2: 66 columns, 34
rows) or braille (2x4: 66 columns, 18 rows). Below the picture go the screen's header and
four lines as plain text, the LED colour and the tones beside them, or while no tone sounds
what a person may type (40 rows for half blocks and quadrants, 24 for braille: an ordinary
80x24 terminal holds picture, text, input help and a line to type on). Where the rows are
too few for that but the columns are many, the feedback goes beside a picture whose letters
read (quadrants from 90x35). Braille's letters are a dot pattern nobody reads: it always has
the text. A terminal too small for any of these gets the text alone. The size is asked at
every frame and on a resize, so a resized terminal gets a new rendering at once.

The text is the display's own layout (device/ui/layout.py), not the screen's source
strings: a line the display cuts is cut here too, so the text never shows more than the
panel does.

A frame is drawn once the person's line is handled, just before the next one is read:
what they read is always the state their next line acts on.
"""
from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from typing import Any, TextIO

from device.ui.layout import layout as oled_layout
from device.ui.screen import Screen
from hardware.sim_display import braille, halfblocks, quadrants

# Largest first: (pixels a cell wide, pixels a cell high, drawing, its letters readable)
PICTURES = ((1, 2, halfblocks, True), (2, 2, quadrants, True), (2, 4, braille, False))
TEXT_ROWS = 5             # the screen as text: the header and four body lines
TEXT_WIDTH = 26           # the widest text line ("> " + 20 + " ^") and a gap before the LED
TYPING_ROWS = 1           # the line the person types on
GAP = 2                   # between the picture and the feedback beside it
SIDE_WIDTH = 24           # the least room beside the picture: "LED amber: your turn" and more
UNKNOWN_SIZE = (80, 24)   # when the terminal does not say: the ordinary one
BELOW, BESIDE = "below", "beside"     # where the feedback goes


def layout(image_size: tuple[int, int], terminal: tuple[int, int]) -> tuple[Callable | None, str]:
    """(the picture's drawing or None, where the feedback goes) for a terminal of (columns,
    rows): the largest picture with the text, the LED, the tones and the input help below
    it, or with the LED, tones and input help beside it where its letters read; else no
    picture, the text alone."""
    columns, rows = terminal
    for width, height, draw, readable in PICTURES:
        box_columns, box_rows = image_size[0] // width + 2, -(-image_size[1] // height) + 2
        if box_columns > columns:
            continue
        if box_rows + TEXT_ROWS + TYPING_ROWS <= rows:
            return draw, BELOW
        if readable and box_rows + TYPING_ROWS <= rows and columns - box_columns >= SIDE_WIDTH:
            return draw, BESIDE
    return None, BELOW


def terminal_size(stream: TextIO) -> tuple[int, int]:
    """The size of the terminal `stream` writes to, asked afresh (a resize re-picks). Asked
    of the terminal itself: COLUMNS and LINES, which a shell may export once, go stale when
    the window is resized."""
    try:
        size = os.get_terminal_size(stream.fileno()) if stream.isatty() else UNKNOWN_SIZE
    except (AttributeError, ValueError, OSError):
        return UNKNOWN_SIZE
    return (size[0], size[1]) if size[0] > 0 and size[1] > 0 else UNKNOWN_SIZE


def write_all(stream: TextIO, text: str) -> None:
    """All of `text` to the terminal, however often a resize interrupts it. A frame is larger
    than the terminal takes at once; when SIGWINCH comes in the middle of its write, write(2)
    returns the part written, CPython's buffered writer hands that short count back, and its
    text layer drops the rest: the next frame began in the middle of a line of this one. So
    the bytes go to the terminal's file by os.write until every one is out."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):   # not a file (a test's StringIO): no signal cuts it
        stream.write(text)
        stream.flush()
        return
    stream.flush()                                  # whatever the stream holds goes first
    data = memoryview(text.encode(getattr(stream, "encoding", None) or "utf-8",
                                  getattr(stream, "errors", None) or "strict"))
    while data:
        data = data[os.write(fd, data):]


class SimTerminal:
    """Takes each new frame (as Frames' `on_frame`) and the printed LED and tones (as the
    feedback's text stream); `draw()` shows what changed since the last draw."""

    def __init__(self, stream: TextIO, size: Callable[[], tuple[int, int]] | None = None,
                 typing: tuple[str, ...] = ()) -> None:
        self.stream = stream
        self.typing = typing                # what a person may type: beside the text when quiet
        self._size = size or (lambda: terminal_size(stream))
        self.frame: tuple[Any, Screen] | None = None
        self.led = ""                       # the LED's colour: it stays lit until it changes
        self.fresh: list[str] = []          # LED and tone lines since the last draw
        self._pending = ""                  # a printed feedback line not yet ended
        self._drawn: tuple[Any, Screen] | None = None
        self.stale = False                  # the terminal was resized: draw again
        self._drawing = False

    def __call__(self, image: Any, screen: Screen) -> None:
        self.frame = (image, screen)

    # ---- the feedback's stream: PrintedLed and PrintedTones print their lines here --------

    def write(self, text: str) -> int:
        *lines, self._pending = (self._pending + text).split("\n")
        for line in filter(None, lines):
            self.fresh.append(line)
            if line.startswith("LED "):
                self.led = line
        return len(text)

    def flush(self) -> None:
        """Nothing is held back but an unended line."""

    # ---- drawing --------------------------------------------------------------------------

    def draw(self) -> None:
        """The frame, as large as the terminal now allows, if it or the LED changed, a tone
        played or the terminal was resized since the last draw. A resize signalled in the
        middle of a draw is drawn once that one ends, one signalled after the loop's last
        look too: its handler found a draw going on and left it to this one."""
        if self._drawing:
            self.stale = True
            return
        while True:
            self._drawing = True
            try:
                while self.frame is not None and (self.frame is not self._drawn or self.fresh
                                                  or self.stale):
                    frame, self.stale = self.frame, False
                    self._draw(*frame)
                    self._drawn = frame
            finally:
                self._drawing = False
            if not self.stale or self.frame is None:   # from here a resize draws by itself
                return

    def _draw(self, image: Any, screen: Screen) -> None:
        columns, rows = self._size()
        draw, place = layout(image.size, (columns, rows))
        out: list[str] = []
        if draw is not None:
            lines = draw(image).split("\n")
            width = len(lines[0])
            out += [f"\u250c{'─' * width}\u2510", *(f"\u2502{line}\u2502" for line in lines),
                    f"\u2514{'─' * width}\u2518"]
        if place == BESIDE:          # from the picture's first row, as the text's rows below
            side = self._feedback(len(out) - 2, columns - len(out[0]) - GAP)
            out[1:1 + len(side)] = [(row + " " * GAP + note).rstrip()[:columns]
                                    for row, note in zip(out[1:], side)]
        else:
            out += self._text(screen, columns)
        write_all(self.stream, "".join(f"{line}\n" for line in out))
        self.fresh = []

    def _feedback(self, rows: int, width: int | None = None) -> list[str]:
        """The LED, then the latest tones or, while none sounds, the input help: in view on
        the first screen, whatever came before it scrolled away. `rows` lines at most; the
        help's lines wrapped to `width` where given (beside the picture, rows are many)."""
        tones = [line for line in self.fresh if not line.startswith("LED ")]
        typing = self.typing if width is None else \
            [part for line in self.typing for part in textwrap.wrap(line, width) or [""]]
        return [self.led, *(tones[-(rows - 1):] or typing[:rows - 1])][:rows]

    def _text(self, screen: Screen, columns: int) -> list[str]:
        """The screen's rows as text, the feedback beside them."""
        text = oled_layout(screen).text().split("\n")[:TEXT_ROWS]
        text += [""] * (TEXT_ROWS - len(text))
        side = self._feedback(TEXT_ROWS)
        side += [""] * (TEXT_ROWS - len(side))
        return [(row.ljust(TEXT_WIDTH) + note).rstrip()[:columns] for row, note in zip(text, side)]
