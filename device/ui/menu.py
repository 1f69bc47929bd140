"""A vertical menu: UP/DOWN move the highlight, the screen shows a window around it.

A menu longer than its lines turns a page at a time: a move inside the page shown moves only
the `>` marker, two glyphs on the display, where a window scrolled a line at a time redrew all
its lines at every move past its end.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass
class Menu:
    items: list[tuple[str, str]]      # (key, label)
    index: int = 0

    def move(self, delta: int) -> None:
        if self.items:
            self.index = (self.index + delta) % len(self.items)

    @property
    def key(self) -> str | None:
        return self.items[self.index][0] if self.items else None

    def window(self, rows: int) -> tuple[list[str], int | None]:
        """Up to `rows` labels around the highlight, and the highlight's row in them."""
        if not self.items or rows <= 0:
            return [], None
        start = self.start(rows)
        shown = self.items[start:start + rows]
        return [label for _, label in shown], self.index - start

    def start(self, rows: int) -> int:
        """The first item shown in `rows` lines: the page of `rows` items the highlight is on,
        the last page ending on the last item so that every line stays filled."""
        if rows <= 0:
            return 0
        return min(self.index // rows * rows, max(0, len(self.items) - rows))

    def on_screen(self, screen, top: list[str], rows: int, bottom: tuple[str, ...] = ()):
        """`screen` showing `top` lines, this menu in `rows` lines, marked and scrolled, then
        `bottom`."""
        labels, highlight = self.window(rows)
        start = self.start(rows) if self.items else 0
        return replace(screen, lines=tuple(top + labels) + bottom,
                       menu=(len(top), len(top) + len(labels)),
                       highlight=None if highlight is None else len(top) + highlight,
                       above=start > 0, below=start + len(labels) < len(self.items))

    def select_key(self, key: str) -> None:
        for n, (k, _) in enumerate(self.items):
            if k == key:
                self.index = n
