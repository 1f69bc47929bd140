"""The screen font: misc-fixed 6x10, so 21 characters fill the 128-pixel line.

Glyphs come from `fonts/fixed6x10.hex` (Latin-1 and the common typographic extras,
enough for French); each is a 6x10 one-bit image pasted through as a mask.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from PIL import Image

WIDTH, HEIGHT = 6, 10
# Characters the font lacks, drawn as their nearest plain form.
FALLBACK = {"−": "-", "→": ">", "←": "<", "×": "x", "✓": "v"}


@lru_cache(maxsize=1)
def glyphs() -> dict[str, Image.Image]:
    text = resources.files(__package__).joinpath("fonts/fixed6x10.hex").read_text(encoding="ascii")
    table: dict[str, Image.Image] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        code, rows = line.split(":")
        # a byte a row, its leftmost pixel in the high bit: the layout of a one-bit image
        table[chr(int(code, 16))] = Image.frombytes("1", (WIDTH, HEIGHT), bytes.fromhex(rows))
    return table


def glyph(char: str) -> Image.Image:
    table = glyphs()
    found = table.get(char) or table.get(FALLBACK.get(char, "?"))
    return found if found is not None else table["?"]


def covers(char: str) -> bool:
    """True when the font draws `char` itself (not a fallback)."""
    return char in glyphs()


@lru_cache(maxsize=512)
def _line_mask(text: str) -> Image.Image:
    """A line's glyphs side by side, as one mask: prompts, scores and menu labels come back
    frame after frame, and one paste per line is far cheaper than one per glyph."""
    mask = Image.new("1", (WIDTH * len(text), HEIGHT))
    for n, char in enumerate(text):
        if char != " ":
            mask.paste(glyph(char), (n * WIDTH, 0))
    return mask


def draw_text(image: Image.Image, x: int, y: int, text: str, fill: int = 1) -> None:
    """Draw `text` with its top-left corner at (x, y) in colour `fill` (1 white, 0 black)."""
    if text.strip(" "):
        image.paste(fill, (x, y, x + WIDTH * len(text), y + HEIGHT), _line_mask(text))
