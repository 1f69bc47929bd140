"""The layout is what the panel shows: its rows read back from the rendered pixels, glyph by
glyph, are its text, cut for cut, and the simulator's text view prints the same rows. Any
screen, however long its texts: a cut is drawn with its ellipsis and named in the layout."""
from __future__ import annotations

import functools
import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from device.sim.terminal import SimTerminal
from device.ui.font import HEIGHT, WIDTH, glyph
from device.ui.layout import PANEL_WIDTH, Cut, layout
from device.ui.render import LINE_TOPS, MARK_X, render
from device.ui.screen import BODY_LINES, COLUMNS, MENU_COLUMNS, Screen

# letters whose glyphs differ from each other's, accents and the ellipsis among them
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:!?'()+-=/éèàçÉÀ"
READABLE = LETTERS + "…>"
text = st.text(LETTERS, max_size=26)


def read(image: Image.Image, x: int, y: int, cells: int, fill: int = 1,
         rows: range | list[int] = range(HEIGHT)) -> str:
    """The characters drawn in `cells` glyph cells from (x, y), matched against the font on the
    cell's `rows` (a body line leaves out the row it shares with the line above or below)."""
    found = []
    for n in range(cells):
        cell = image.crop((x + n * WIDTH, y, x + (n + 1) * WIDTH, y + HEIGHT))
        if fill == 0:
            cell = ImageChops.invert(cell.convert("L")).convert("1")
        found.append(seen(cell, rows))
    return "".join(found)


def seen(cell: Image.Image, rows: range | list[int]) -> str:
    """The first character whose glyph is this cell on these rows ("?" for none)."""
    return _by_rows(tuple(rows)).get(on_rows(cell, rows), "?")


def on_rows(cell: Image.Image, rows: range | list[int]) -> bytes:
    packed = cell.tobytes()            # a 6-pixel row is one byte
    return bytes(packed[row] for row in rows)


@functools.cache
def _by_rows(rows: tuple[int, ...]) -> dict[bytes, str]:
    found: dict[bytes, str] = {}
    for char in READABLE:
        found.setdefault(on_rows(glyph(char), rows), char)
    return found


def shared(top: int) -> set[int]:
    """The rows of the body line's cell at `top` that another line's cell covers too: a
    descender's last row and the accents of the line under it."""
    return {y for other in LINE_TOPS if other != top
            for y in range(max(top, other), min(top, other) + HEIGHT)}


def drawn_shared_rows(laid) -> Image.Image:
    """The body lines' glyphs as the layout names them, each at its place, one over another."""
    image = Image.new("1", (PANEL_WIDTH, LINE_TOPS[-1] + HEIGHT))
    for top, row in zip(LINE_TOPS, laid.rows):
        x, text = (0, row.marker + row.text) if row.marker else (1, row.text)
        for n, char in enumerate(text):
            image.paste(1, (x + n * WIDTH, top), glyph(char))
    return image


@st.composite
def screens(draw) -> Screen:
    lines = tuple(draw(st.lists(text, max_size=BODY_LINES + 1)))
    shown = min(len(lines), BODY_LINES)
    menu = None
    highlight = None
    if shown and draw(st.booleans()):
        first = draw(st.integers(0, shown - 1))
        menu = (first, draw(st.integers(first + 1, shown)))
        highlight = draw(st.integers(menu[0], menu[1] - 1))
    return Screen(draw(text), draw(st.text(LETTERS, max_size=12)), lines, highlight, menu,
                  draw(st.booleans()), draw(st.booleans()))


@given(screens())
def test_the_pixels_read_back_are_the_layouts_rows(screen):
    laid, image = layout(screen), render(screen)
    assert read(image, 1, 0, COLUMNS, fill=0) == laid.header
    for top, row in zip(LINE_TOPS, laid.rows):
        own = [y for y in range(HEIGHT) if top + y not in shared(top)]
        if row.marker:
            cells = 1 + MENU_COLUMNS - (1 if row.mark else 0)
            drawn, text = read(image, 0, top, cells, rows=own), row.marker + row.text
        else:
            cells = COLUMNS - (1 if row.mark else 0)
            drawn, text = read(image, 1, top, cells, rows=own), row.text
        # a character told from another by its shared row alone (E, É) reads as the first
        assert drawn.rstrip() == "".join(seen(glyph(char), own) for char in text).rstrip()
        if row.mark:           # in the column the text leaves free for it
            assert any(image.getpixel((MARK_X + 2, top + y)) for y in range(HEIGHT))
    # and a shared row holds both lines' pixels there, nothing else
    composed = drawn_shared_rows(laid)
    for y in sorted(set().union(*map(shared, LINE_TOPS))):
        row = (0, y, PANEL_WIDTH, y + 1)
        assert image.crop(row).tobytes() == composed.crop(row).tobytes()


@given(screens())
def test_every_text_not_drawn_whole_is_named_as_a_cut(screen):
    laid = layout(screen)
    texts = [screen.header, screen.header_right, *screen.lines]
    drawn = laid.header or ""
    whole = [t for t in texts if t in drawn or any(t == row.text for row in laid.rows)]
    named = {cut.text for cut in laid.cuts}
    assert all(t in whole or t in named for t in texts)
    assert all(cut.shown.endswith("…") or cut.shown == "" for cut in laid.cuts)


@given(screens())
def test_the_simulators_text_view_is_the_layouts(screen):
    stream = io.StringIO()
    terminal = SimTerminal(stream, size=lambda: (200, 60))
    terminal(render(screen), screen)
    terminal.draw()
    rows = stream.getvalue().split("\n")[-6:-1]        # the header and four lines, then ""
    view = layout(screen).text().split("\n")
    assert [row.rstrip() for row in rows[:len(view)]] == [line.rstrip() for line in view]


def test_a_house_rule_cut_is_named_with_what_the_panel_shows():
    screen = Screen("A TRIBORD!", "", ("House rules", "Start game", "Starting pair    discard"),
                    highlight=2, menu=(1, 3), below=True)
    assert layout(screen).cuts == (Cut("line 3", "Starting pair    discard",
                                       "Starting pair    d…"),)
    assert layout(screen).text().split("\n")[3] == "> Starting pair    d… v"
