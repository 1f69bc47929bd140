"""What the OLED shows, as data: an inverted header and up to four body lines.

Screens are built by the UI modes and drawn by `render`; keeping them as plain
values makes "did the frame change?" a comparison and screens easy to test.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

COLUMNS = 21        # 128 px / 6 px per character
MENU_COLUMNS = COLUMNS - 1     # a menu line after its marker column (`>` on the highlight)
BODY_LINES = 4


@dataclass(frozen=True)
class Screen:
    header: str = ""
    header_right: str = ""
    lines: tuple[str, ...] = ()
    highlight: int | None = None      # body line marked `>` (a menu's selection)
    menu: tuple[int, int] | None = None   # body lines (first, stop) of a menu: after a marker
    above: bool = False               # a list hides lines above its first one shown (a
                                      # text: its page follows others)
    below: bool = False               # ... or below its last one shown
    footer: int = 0                   # last lines that stay put under a list (what a button does)
    more: int | None = None           # the body line ending a page of a text that goes on
    blank: bool = False               # screensaver off / night
    drift: tuple[int, int] | None = None   # screensaver: only the lines, at this pixel (x, y)

    def scrolled(self, first: int, shown: int, total: int) -> Screen:
        """This screen, marked for a list showing lines first..first+shown of total."""
        return replace(self, above=first > 0, below=first + shown < total)


def beside(left: str, note: str, short: str) -> str:
    """A header note beside the header's `left` text: whole where both fit, else its short
    form, so the game's name stays whole."""
    return note if len(left) + 1 + len(note) <= COLUMNS else short


def fit(text: str, width: int = COLUMNS) -> str:
    """Cut a line to `width` characters, marking the cut with an ellipsis."""
    return text if len(text) <= width else text[:width - 1] + "…"


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    """Break text into screen lines: at its own newlines, then between words. A word longer
    than a line (a file's name) goes on over the next lines, a line's width at a time."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        if len(paragraph) <= width and paragraph[:1] != " ":
            lines.append(paragraph)     # most lines fit whole: the words go back as they were
            continue
        line = ""
        for word in _pieces(paragraph.split(" "), width):
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= width:
                line = candidate
            else:
                if line:
                    lines.append(line)
                line = word
        lines.append(line)
    return lines


def _pieces(words: list[str], width: int) -> list[str]:
    """The words, each longer than `width` in pieces of `width` characters."""
    if width < 1 or all(len(word) <= width for word in words):
        return words
    return [word[at:at + width] for word in words for at in range(0, max(len(word), 1), width)]
