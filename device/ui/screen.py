"""What the OLED shows, as data: an inverted header and up to four body lines.

Screens are built by the UI modes and drawn by `render`; keeping them as plain
values makes "did the frame change?" a comparison and screens easy to test.
"""
from __future__ import annotations

from dataclasses import dataclass

COLUMNS = 21        # 128 px / 6 px per character
BODY_LINES = 4


@dataclass(frozen=True)
class Screen:
    header: str = ""
    header_right: str = ""
    lines: tuple[str, ...] = ()
    highlight: int | None = None      # body line drawn inverted (a menu's selection)
    blank: bool = False               # screensaver off / night
    drift: tuple[int, int] | None = None   # screensaver: only the lines, at this pixel (x, y)

    def text(self) -> str:
        """A plain-text form, for logs, tests and the non-terminal preview."""
        top = fit_header(self.header, self.header_right)
        body = [("> " if i == self.highlight else "  ") + line for i, line in enumerate(self.lines)]
        return "\n".join(["|" + top + "|"] + body)


def fit(text: str, width: int = COLUMNS) -> str:
    """Cut a line to `width` characters, marking the cut with an ellipsis."""
    return text if len(text) <= width else text[:width - 1] + "…"


def fit_header(left: str, right: str, width: int = COLUMNS) -> str:
    """Left text, then right text flush right; the left side gives way first."""
    right = fit(right, width)
    room = width - len(right) - (1 if right else 0)
    left = fit(left, room) if room > 0 else ""
    return left + " " * (width - len(left) - len(right)) + right


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    """Break text into screen lines: at its own newlines, then between words."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= width:
                line = candidate
            else:
                if line:
                    lines.append(line)
                line = fit(word, width)
        lines.append(line)
    return lines
