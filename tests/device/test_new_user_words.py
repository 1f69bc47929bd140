"""What a new player reads off the frames, in both languages, where a word was missing or
a line wrapped: each text read whole, its pages put together."""
from __future__ import annotations

from device.ui.layout import layout

from .table import SimTable


def read(table: SimTable, pages: int, turn: str = "press down") -> str:
    """The words of `pages` pages of the text on screen, each turned by `turn` (an
    instruction's page stays until a button)."""
    words: list[str] = []
    for n in range(pages):
        assert not layout(table.screen).cuts
        words += " ".join(table.screen.lines).split()
        if n < pages - 1:
            table.run(turn)
    return " ".join(word for word in words if word not in ("v", "^"))


def test_the_french_peek_reminder_wraps_whole_under_the_prompt(tmp_path):
    """"Pas celle vue par Alice" is 23 characters: two whole lines under "retourne 2 cartes",
    the card it speaks of."""
    table = SimTable(tmp_path, "fr").start("palourde", "Alice,Bruno,Cyril", "Alice")
    table.run("tap shrimp#1\ntap shrimp#2\npress select")
    assert table.screen.lines == ("Bruno\u00a0: retourne", "2 cartes, passe-les",
                                  "Pas celle vue par", "Alice")
    assert not layout(table.screen).cuts

