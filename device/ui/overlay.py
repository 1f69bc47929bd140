"""Messages over the current mode: the engine's answers, the device's refusals and notes.

They show a screenful (page) at a time; a page stays some seconds or until a button, and a
message that names a button ("SELECT when done") is answered by one press of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .screen import BODY_LINES

BUTTON_WORD = re.compile(r"\b(UP|DOWN|SELECT|BACK)\b")     # as the buttons are labelled


@dataclass
class Overlay:
    """Messages over the current mode, a screenful (page) at a time.

    Each page stays `seconds` (or until a button); a message is never split across
    pages unless it alone is longer than a screen.
    """

    pages: list[list[str]]
    until: float
    seconds: float

    @classmethod
    def of(cls, blocks: list[list[str]], now: float, seconds: float) -> Overlay | None:
        pages: list[list[str]] = []
        for block in blocks:
            for start in range(0, len(block), BODY_LINES):
                chunk = block[start:start + BODY_LINES]
                if pages and len(pages[-1]) + len(chunk) <= BODY_LINES:
                    pages[-1] = pages[-1] + chunk
                else:
                    pages.append(chunk)
        return cls(pages, now + seconds, seconds) if pages else None

    @property
    def lines(self) -> list[str]:
        return self.pages[0]

    def names(self, button: str) -> bool:
        """Does the page shown name this button ("SELECT when done", "BACK=no")?"""
        return button.upper() in BUTTON_WORD.findall(" ".join(self.lines))

    def turn(self, until: float) -> Overlay | None:
        """The next page, shown until `until`; None after the last one."""
        return Overlay(self.pages[1:], until, self.seconds) if len(self.pages) > 1 else None
