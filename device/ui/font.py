"""The screen font: misc-fixed 6x10, so 21 characters fill the 128-pixel line.

Glyphs come from `fonts/fixed6x10.hex` (Latin-1 and the common typographic extras,
enough for French): ten rows a glyph, a byte a row with its leftmost pixel in the high
bit. A line of text is drawn through one mask, its glyphs' rows set side by side.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from PIL import Image

WIDTH, HEIGHT = 6, 10
# Characters the font lacks, drawn as their nearest plain form.
FALLBACK = {"−": "-", "→": ">", "←": "<", "×": "x", "✓": "v"}


@lru_cache(maxsize=1)
def _rows() -> dict[str, bytes]:
    """Each character's ten row bytes, as the font file has them."""
    text = resources.files(__package__).joinpath("fonts/fixed6x10.hex").read_text(encoding="ascii")
    table: dict[str, bytes] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        code, rows = line.split(":")
        table[chr(int(code, 16))] = bytes.fromhex(rows)
    return table


@lru_cache(maxsize=1)
def glyphs() -> dict[str, Image.Image]:
    # a byte a row, its leftmost pixel in the high bit: the layout of a one-bit image
    return {char: Image.frombytes("1", (WIDTH, HEIGHT), rows) for char, rows in _rows().items()}


def _drawn_as(char: str) -> str:
    """The character whose glyph draws `char`: itself, its fallback, else "?"."""
    table = _rows()
    for candidate in (char, FALLBACK.get(char, "?")):
        if candidate in table:
            return candidate
    return "?"


def glyph(char: str) -> Image.Image:
    return glyphs()[_drawn_as(char)]


def covers(char: str) -> bool:
    """True when the font draws `char` itself (not a fallback)."""
    return char in _rows()


@lru_cache(maxsize=4096)
def _spread(char: str, stride: int) -> int:
    """The glyph's rows in one integer, a row every `stride` bits, the top row highest and
    the glyph's pixels in each row's top WIDTH bits."""
    spread = 0
    for row in _rows()[_drawn_as(char)]:
        spread = spread << stride | (row >> 8 - WIDTH) << stride - WIDTH
    return spread


@lru_cache(maxsize=512)
def _line_mask(text: str) -> Image.Image:
    """A line's glyphs side by side, as one mask: prompts, scores and menu labels come back
    frame after frame, and one paste per line is far cheaper than one per glyph.

    The mask's packed bytes (each row padded to whole bytes, `stride` bits) are one integer
    of the glyphs' rows, each glyph shifted to its column: a few integer operations a glyph,
    where a paste a glyph cost PIL's checks each time."""
    width = WIDTH * len(text)
    stride = -(-width // 8) * 8
    bits = 0
    for n, char in enumerate(text):
        if char != " ":
            bits |= _spread(char, stride) >> n * WIDTH
    return Image.frombytes("1", (width, HEIGHT), bits.to_bytes(stride * HEIGHT // 8, "big"))


def draw_text(image: Image.Image, x: int, y: int, text: str, fill: int = 1) -> None:
    """Draw `text` with its top-left corner at (x, y) in colour `fill` (1 white, 0 black)."""
    if text.strip(" "):
        image.paste(fill, (x, y, x + WIDTH * len(text), y + HEIGHT), _line_mask(text))
