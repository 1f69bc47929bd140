"""Draw a Screen onto a 128x64 one-bit image, the form the display drivers take.

The panel stores the image as eight pages of 8 pixel rows, and an update sends the
changed columns of each changed page (hardware/pages.py). So the layout puts text on
the pages: the font's letters sit in rows 1-7 of its 10-row cell, accents in row 0 and
descenders in rows 8-9. The header and the third body line start on a page boundary
and the first one row above one, so their letters lie in a single page and only
accents and descenders reach the next; the others have most of theirs in one page.
A changed line then costs about one page of bytes instead of two (a quarter of
luma.oled's full frame per update over the bench's games, against two fifths with
evenly spaced lines). The menu highlight is a `>` in a marker column, not an
inverted bar: moving it changes two glyphs, not two whole labels.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from .font import draw_text
from .screen import BODY_LINES, COLUMNS, MENU_COLUMNS, Screen, fit, fit_header

SIZE = (128, 64)
HEADER_HEIGHT = 10       # the inverted bar: the header's text row, on page 0
HEADER_TOP = 0
LINE_TOPS = (15, 30, 40, 54)     # body rows: letters on pages 2, 4 (mostly), 5 and 7 (mostly)
DRIFT_PITCH = 13         # screensaver lines, wherever they drift
MARK_X = SIZE[0] - 5     # scroll marks: small triangles at the right end of a list's lines


def render(screen: Screen) -> Image.Image:
    image = Image.new("1", SIZE, 0)
    if screen.blank:
        return image
    if screen.drift is not None:       # no header bar: nothing may stay lit in one place
        x, y = screen.drift
        for row, line in enumerate(screen.lines[:BODY_LINES]):
            draw_text(image, x, y + row * DRIFT_PITCH, line)
        return image
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SIZE[0] - 1, HEADER_HEIGHT - 1), fill=1)
    draw_text(image, 1, HEADER_TOP, fit_header(screen.header, screen.header_right), fill=0)
    shown = screen.lines[:BODY_LINES]
    first, stop = screen.menu or (0, len(shown) - screen.footer)   # the list's lines: the marks'
    marked = {first} if screen.above else set()
    marked |= {stop - 1} if screen.below else set()
    for row, line in enumerate(shown):
        _line(image, screen, row, line, row in marked)
    for row in marked & set(range(len(shown))):
        _mark(draw, LINE_TOPS[row], up=row == first and screen.above)
    return image


def _line(image: Image.Image, screen: Screen, row: int, line: str, marked: bool) -> None:
    """One body line: a menu's after its marker column, any cut short where a scroll mark sits."""
    y = LINE_TOPS[row]
    in_menu = screen.menu is not None and screen.menu[0] <= row < screen.menu[1]
    columns = (MENU_COLUMNS if in_menu else COLUMNS) - (1 if marked else 0)
    if in_menu:
        draw_text(image, 0, y, (">" if row == screen.highlight else " ") + fit(line, columns))
    else:
        draw_text(image, 1, y, fit(line, columns))


def _mark(draw: ImageDraw.ImageDraw, top: int, up: bool) -> None:
    """A 5-pixel triangle, pointing to where more lines are."""
    rows = range(3, 6) if up else range(5, 2, -1)
    for width, y in zip((0, 1, 2), rows):
        draw.line((MARK_X + 2 - width, top + y, MARK_X + 2 + width, top + y), fill=1)

