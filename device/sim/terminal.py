"""The simulator on a terminal: the 128x64 frame as large as the terminal allows, the
screen's text when the picture's letters are too small to read, the LED and the tones.

The picture is the largest drawing whose framed box fits the terminal's width: half
blocks (1x2 pixels a cell, 130 columns), quadrants (2x2, 66 columns) or braille (2x4,
66 columns and 18 rows). Braille's letters are a dot pattern nobody reads, so the
screen's header and four lines follow the picture as plain text, the LED colour and the
tones beside them, or while no tone sounds what a person may type: an ordinary 80x24
terminal holds picture, text, input help and a line to type on.
A terminal too small for any picture gets the text alone. The size is asked at every
frame and on a resize, so a resized terminal gets a new rendering at once.

The text is the display's own layout (device/ui/layout.py), not the screen's source
strings: a line the display cuts is cut here too, so the text never shows more than the
panel does.

A frame is drawn once the person's line is handled, just before the next one is read:
what they read is always the state their next line acts on.
"""
from __future__ import annotations

import os
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
UNKNOWN_SIZE = (80, 24)   # when the terminal does not say: the ordinary one


def layout(image_size: tuple[int, int], terminal: tuple[int, int]) -> tuple[Callable | None, bool]:
    """(the picture's drawing or None, whether the text goes with it) for a terminal of
    (columns, rows): the largest picture that fits, with the text when it fits too, and
    with it in any case where the picture's letters cannot be read."""
    columns, rows = terminal
    for width, height, draw, readable in PICTURES:
        box_rows = -(-image_size[1] // height) + 2
        if image_size[0] // width + 2 > columns:
            continue
        if box_rows + TEXT_ROWS + TYPING_ROWS <= rows:
            return draw, True
        if readable and box_rows + TYPING_ROWS <= rows:
            return draw, False
    return None, True


def terminal_size(stream: TextIO) -> tuple[int, int]:
    """The size of the terminal `stream` writes to, asked afresh (a resize re-picks). Asked
    of the terminal itself: COLUMNS and LINES, which a shell may export once, go stale when
    the window is resized."""
    try:
        size = os.get_terminal_size(stream.fileno()) if stream.isatty() else UNKNOWN_SIZE
    except (AttributeError, ValueError, OSError):
        return UNKNOWN_SIZE
    return (size[0], size[1]) if size[0] > 0 and size[1] > 0 else UNKNOWN_SIZE


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
        middle of a draw is drawn once that one ends."""
        if self._drawing:
            self.stale = True
            return
        self._drawing = True
        try:
            while self.frame is not None and (self.frame is not self._drawn or self.fresh
                                              or self.stale):
                frame, self.stale = self.frame, False
                self._draw(*frame)
                self._drawn = frame
        finally:
            self._drawing = False

    def _draw(self, image: Any, screen: Screen) -> None:
        columns, rows = self._size()
        draw, with_text = layout(image.size, (columns, rows))
        out = [] if with_text else list(self.fresh)     # no text to sit beside: above
        if not with_text and self._drawn is None:
            out[:0] = self.typing                       # ... and the input help, once
        if draw is not None:
            lines = draw(image).split("\n")
            width = len(lines[0])
            out += [f"\u250c{'─' * width}\u2510", *(f"\u2502{line}\u2502" for line in lines),
                    f"\u2514{'─' * width}\u2518"]
        if with_text:
            out += self._text(screen, columns)
        self.stream.write("".join(f"{line}\n" for line in out))
        self.stream.flush()
        self.fresh = []

    def _text(self, screen: Screen, columns: int) -> list[str]:
        """The screen's rows as text, the LED and the latest tones beside them; without tones,
        the input help: in view on the first screen, whatever came before it scrolled away."""
        text = oled_layout(screen).text().split("\n")[:TEXT_ROWS]
        text += [""] * (TEXT_ROWS - len(text))
        tones = [line for line in self.fresh if not line.startswith("LED ")]
        side = [self.led, *(tones[-(TEXT_ROWS - 1):] or self.typing[:TEXT_ROWS - 1])]
        side += [""] * (TEXT_ROWS - len(side))
        return [(row.ljust(TEXT_WIDTH) + note).rstrip()[:columns] for row, note in zip(text, side)]
