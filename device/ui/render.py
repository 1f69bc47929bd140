"""Draw a Screen onto a 128x64 one-bit image, the form the display drivers take.

The panel stores the image as eight pages of 8 pixel rows, and an update sends the
changed columns of each changed page (hardware/pages.py). So the layout puts text on
the pages: the font's letters sit in rows 1-7 of its 10-row cell, accents in row 0 and
descenders in rows 8-9. Each body line has its letters and its descenders' first row in
one page (pages 2, 3, 5 and 6): the body lines go in two pairs, nine rows apart, where
the upper line's last descender row is the lower line's accent row, and the pairs are
fifteen rows apart. A changed line then costs one page of bytes, and its neighbour's
page only where a descender or an accent changes (21 % of luma.oled's full frame per
update over the bench's games, against 24 % with ten rows between lines, where the
second and fourth lines' capitals reached the page above, and two fifths with evenly
spaced lines). The menu highlight is a `>` in a marker column, not an inverted bar:
moving it changes two glyphs, not two whole labels.

Which text goes in which row, cut where it must be, is the Layout's (layout.py): this
module only sets its pixels, so the simulator's text view can print the same Layout.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .font import draw_text
from .layout import Layout, layout
from .screen import Screen

SIZE = (128, 64)
HEADER_HEIGHT = 10       # the inverted bar: the header's text row, on page 0
HEADER_TOP = 0
LINE_TOPS = (15, 24, 39, 48)     # body rows: letters on pages 2, 3, 5 and 6
DRIFT_PITCH = 13         # screensaver lines, wherever they drift
MARK_X = SIZE[0] - 5     # scroll marks: small triangles at the right end of a list's lines


def render(screen: Screen) -> Image.Image:
    """The screen's pixels: a copy each time, as a panel's driver keeps the frame it took."""
    return _drawn(screen).copy()


@lru_cache(maxsize=256)
def _drawn(screen: Screen) -> Image.Image:
    """A screen comes back again and again (the prompt after each message, a menu at each of
    its highlights): it is drawn once."""
    return draw(screen, layout(screen))


def draw(screen: Screen, laid: Layout) -> Image.Image:
    """The layout's text on the panel's pixels (`screen` says where a screensaver drifted)."""
    if screen.drift is not None and not screen.blank:     # no bar: nothing stays lit in one place
        image = Image.new("1", SIZE, 0)
        x, y = screen.drift
        for n, row in enumerate(laid.rows):
            draw_text(image, x, y + n * DRIFT_PITCH, row.text)
        return image
    if laid.header is None:
        return Image.new("1", SIZE, 0)
    image = _headed(laid.header).copy()
    for top, row in zip(LINE_TOPS, laid.rows):
        if row.marker:           # a menu's line, after its marker column
            draw_text(image, 0, top, row.marker + row.text)
        else:
            draw_text(image, 1, top, row.text)
        if row.mark:
            _mark(ImageDraw.Draw(image), top, up=row.mark == "^")
    return image


@lru_cache(maxsize=64)
def _headed(header: str) -> Image.Image:
    """A frame with only its header: the inverted bar and its text. A game's screens share
    their header, so each frame starts from a copy of it rather than drawing it again."""
    image = Image.new("1", SIZE, 0)
    ImageDraw.Draw(image).rectangle((0, 0, SIZE[0] - 1, HEADER_HEIGHT - 1), fill=1)
    draw_text(image, 1, HEADER_TOP, header, fill=0)
    return image


def _mark(draw: ImageDraw.ImageDraw, top: int, up: bool) -> None:
    """A 5-pixel triangle, pointing to where more lines are."""
    rows = range(3, 6) if up else range(5, 2, -1)
    for width, y in zip((0, 1, 2), rows):
        draw.line((MARK_X + 2 - width, top + y, MARK_X + 2 + width, top + y), fill=1)

