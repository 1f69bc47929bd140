"""Display twins for `--sim`, previews and tests: PNG frames and a terminal picture.

Both take the same mode "1" images as the OLED and, like it, do nothing for
a frame identical to the last one.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

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


class _Twin:
    """What both twins share: the last frame, the contrast, the paused frame on close."""

    def __init__(self) -> None:
        self.frame: Any = None
        self.level = 0xCF
        self.closed = False

    def show(self, image: Any) -> None:
        if image.mode != "1":
            raise ValueError(f'the display takes mode "1" images, not {image.mode!r}')
        if self.frame is not None and image.tobytes() == self.frame.tobytes():
            return
        self.frame = image.copy()
        self._new_frame(self.frame)

    def contrast(self, level: int) -> None:
        self.level = level

    def close(self, paused_image: Any = None) -> None:
        if paused_image is not None:
            self.show(paused_image)
        self.closed = True

    def _new_frame(self, image: Any) -> None:
        raise NotImplementedError


class FrameDisplay(_Twin):
    """Keeps the last frame; with a directory, writes each new one as frame_00001.png, ..."""

    def __init__(self, directory: str | Path | None = None) -> None:
        super().__init__()
        self.directory = Path(directory) if directory is not None else None
        self.count = 0
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)

    def _new_frame(self, image: Any) -> None:
        self.count += 1
        if self.directory is not None:
            image.save(self.directory / f"frame_{self.count:05d}.png")


class TerminalDisplay(_Twin):
    """Draws each new frame on a text stream, framed so the panel's edges show."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self._stream = stream

    def _new_frame(self, image: Any) -> None:
        stream = self._stream or sys.stdout
        width = image.size[0]
        body = "\n".join(f"\u2502{line}\u2502" for line in halfblocks(image).split("\n"))
        stream.write(f"\u250c{'─' * width}\u2510\n{body}\n\u2514{'─' * width}\u2518\n")
        stream.flush()
