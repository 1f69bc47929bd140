"""The display's twin for `--sim`, previews and tests (PNG frames), and the drawings of a
frame as text that the simulator's terminal picks from (device.sim.terminal).

The twin takes the same mode "1" images as the OLED and, like it, does nothing for
a frame identical to the last one.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

# Two pixel rows per character cell: (top, bottom) -> glyph
HALF_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}


def halfblocks(image: Any) -> str:
    """A mode "1" image as text, two pixel rows per line of Unicode half blocks."""
    if image.mode != "1":
        raise ValueError(f'halfblocks draws mode "1" images, not {image.mode!r}')
    pixels, (width, height) = image.load(), image.size
    lines = []
    for y in range(0, height, 2):
        lines.append("".join(
            HALF_BLOCKS[bool(pixels[x, y]), y + 1 < height and bool(pixels[x, y + 1])]
            for x in range(width)))
    return "\n".join(lines)


# Two by two pixels per cell, bit 1 top left, 2 top right, 4 bottom left, 8 bottom right.
QUADRANTS = " \u2598\u259d\u2580\u2596\u258c\u259e\u259b\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588"
# Two by four pixels per cell, as Unicode braille numbers its dots: BRAILLE_DOTS[dy][dx].
BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def quadrants(image: Any) -> str:
    """A mode "1" image as text, two by two pixels per character (a quarter of halfblocks')."""
    return _cells(image, 2, 2, lambda bits: QUADRANTS[bits],
                  lambda dx, dy: 1 << (dy * 2 + dx))


def braille(image: Any) -> str:
    """A mode "1" image as text, two by four pixels per braille character: 128x64 in 64x16."""
    return _cells(image, 2, 4, lambda bits: chr(0x2800 + bits),
                  lambda dx, dy: BRAILLE_DOTS[dy][dx])


def _cells(image: Any, width: int, height: int, glyph: Callable[[int], str],
           bit: Callable[[int, int], int]) -> str:
    pixels, (columns, rows) = image.load(), image.size
    lines = []
    for y in range(0, rows, height):
        line = []
        for x in range(0, columns, width):
            bits = 0
            for dy in range(height):
                for dx in range(width):
                    if x + dx < columns and y + dy < rows and pixels[x + dx, y + dy]:
                        bits |= bit(dx, dy)
            line.append(glyph(bits))
        lines.append("".join(line))
    return "\n".join(lines)


class FrameDisplay:
    """Keeps the last frame and the contrast; with a directory, writes each new frame as
    frame_00001.png, ...; on close, shows the paused frame."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.frame: Any = None
        self.level = 0xCF
        self.closed = False
        self.directory = Path(directory) if directory is not None else None
        self.count = 0
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)

    def show(self, image: Any) -> None:
        if image.mode != "1":
            raise ValueError(f'the display takes mode "1" images, not {image.mode!r}')
        if self.frame is not None and image.tobytes() == self.frame.tobytes():
            return
        self.frame = image.copy()
        self.count += 1
        if self.directory is not None:
            image.save(self.directory / f"frame_{self.count:05d}.png")

    def contrast(self, level: int) -> None:
        self.level = level

    def close(self, paused_image: Any = None) -> None:
        if paused_image is not None:
            self.show(paused_image)
        self.closed = True
