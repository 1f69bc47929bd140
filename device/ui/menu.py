"""A vertical menu: UP/DOWN move the highlight, the screen shows a window around it."""
from __future__ import annotations

from dataclasses import dataclass


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
        start = min(max(0, self.index - rows + 1), max(0, len(self.items) - rows))
        shown = self.items[start:start + rows]
        return [label for _, label in shown], self.index - start

    def select_key(self, key: str) -> None:
        for n, (k, _) in enumerate(self.items):
            if k == key:
                self.index = n
