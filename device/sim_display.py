"""The simulator's display: PNG frames in a folder and/or half blocks on the terminal."""
from __future__ import annotations

import sys
from pathlib import Path


def half_blocks(image) -> str:
    """A one-bit image as text: each character shows two pixel rows (▀ ▄ █ or space)."""
    width, height = image.size
    pixels = image.load()
    rows = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            top = bool(pixels[x, y])
            bottom = bool(pixels[x, y + 1]) if y + 1 < height else False
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        rows.append("".join(row))
    return "\n".join(rows)


class SimDisplay:
    """Keeps the last frame; writes numbered PNGs and/or draws on the terminal."""

    def __init__(self, frames: Path | None = None, terminal: bool = False, out=sys.stdout) -> None:
        self.frames = frames
        self.terminal = terminal
        self.out = out
        self.last = None
        self.count = 0
        if frames:
            frames.mkdir(parents=True, exist_ok=True)

    def show(self, image) -> None:
        self.last = image
        self.count += 1
        if self.frames:
            image.convert("L").save(self.frames / f"frame-{self.count:05d}.png")
        if self.terminal:
            border = "+" + "-" * image.size[0] + "+"
            body = "\n".join(f"|{row}|" for row in half_blocks(image).splitlines())
            print(f"{border}\n{body}\n{border}", file=self.out, flush=True)

    def close(self) -> None:
        """Nothing to release."""


def sim_display(frames: Path | None, terminal: bool) -> SimDisplay:
    return SimDisplay(frames, terminal)
