"""What the display draws of a Screen, character by character, before any pixel is set.

`render` draws a Layout, and the simulator's text view prints the same Layout, so the text
a person reads beside the picture is the picture's, cut for cut. A text too long for its
place is cut with an ellipsis, and the Layout names each cut: where it is, the whole text
and what was drawn of it. Nothing should ever be cut (a catalog has a short form written
by hand where a text is too long), so a test fails on any cut the Layout reports.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .font import WIDTH
from .screen import BODY_LINES, COLUMNS, MENU_COLUMNS, Screen, fit

PANEL_WIDTH = 128


@dataclass(frozen=True)
class Cut:
    place: str          # "header", "line 2": where on the screen
    text: str           # the whole text that was to be drawn there
    shown: str          # what the display draws of it ("" when a line has no row left)


@dataclass(frozen=True)
class Row:
    text: str           # the body line as drawn
    marker: str = ""    # a menu's marker column: ">" on the highlight, " " beside the others
    mark: str = ""      # a scroll mark at the line's end: "^" more above, "v" more below


@dataclass(frozen=True)
class Layout:
    header: str | None              # the inverted bar's text; None: no bar (blank, screensaver)
    rows: tuple[Row, ...]
    cuts: tuple[Cut, ...]

    def text(self) -> str:
        """A plain-text form, for logs, tests and the simulator: the bar between `|`, then
        each body line after its marker column (`> ` on a menu's highlight)."""
        top = "|" + (self.header or " " * COLUMNS) + "|"
        body = [("> " if row.marker == ">" else "  ") + row.text + (" " + row.mark if row.mark
                                                                   else "")
                for row in self.rows]
        return "\n".join([top] + body)


@lru_cache(maxsize=512)
def layout(screen: Screen) -> Layout:
    """The screen as drawn (kept for the screens that come back: both are values)."""
    if screen.blank:
        return Layout(None, (), ())
    if screen.drift is not None:       # the lines alone, from wherever they drifted to
        room = max(0, (PANEL_WIDTH - screen.drift[0]) // WIDTH)
        placed = [_placed(f"line {n + 1}", line, room) for n, line in enumerate(screen.lines)]
        return _layout(None, [Row(text) for text, _ in placed[:BODY_LINES]], placed)
    header = _header(screen.header, screen.header_right)
    shown = screen.lines[:BODY_LINES]
    first, stop = screen.menu or (0, len(shown) - screen.footer)   # the list's lines: the marks'
    marks = {first: "^"} if screen.above else {}
    if screen.below:
        marks.setdefault(stop - 1, "v")
    if screen.more is not None:        # a text's page, above a menu: more of it comes
        marks[screen.more] = "v"
    placed = []
    rows = []
    for n, line in enumerate(screen.lines):
        mark = marks.get(n, "") if n < BODY_LINES else ""
        in_menu = screen.menu is not None and screen.menu[0] <= n < screen.menu[1]
        columns = (MENU_COLUMNS if in_menu else COLUMNS) - (1 if mark else 0)
        placed.append(_placed(f"line {n + 1}", line, columns if n < BODY_LINES else 0))
        marker = (">" if n == screen.highlight else " ") if in_menu else ""
        rows.append(Row(placed[-1][0], marker, mark))
    return _layout(header[0], rows[:BODY_LINES], [*header[1], *placed])


def _layout(header: str | None, rows: list[Row], placed: list[tuple[str, Cut | None]]) -> Layout:
    return Layout(header, tuple(rows), tuple(cut for _, cut in placed if cut is not None))


def _placed(place: str, text: str, columns: int) -> tuple[str, Cut | None]:
    """`text` as drawn in `columns` characters (none: a line past the last row), and its cut."""
    if len(text) <= columns:
        return text, None
    shown = fit(text, columns) if columns > 0 else ""
    return shown, Cut(place, text, shown)


def _header(left: str, right: str) -> tuple[str, list[tuple[str, Cut | None]]]:
    """The bar: left text, right text flush right; the left side gives way first."""
    right_shown, right_cut = _placed("header right", right, COLUMNS)
    room = COLUMNS - len(right_shown) - (1 if right_shown else 0)
    left_shown, left_cut = _placed("header", left, max(room, 0))
    bar = left_shown + " " * (COLUMNS - len(left_shown) - len(right_shown)) + right_shown
    return bar, [(left_shown, left_cut), (right_shown, right_cut)]
