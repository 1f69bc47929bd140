"""Messages over the current mode: the engine's answers, the device's refusals and notes.

They show a screenful (page) at a time. A page that only informs goes after some seconds or at
a button; a page that asks the table to move cards or tokens (the game's instructions) stays
until the next input, so nobody misses what to do. A message that names a button ("SELECT
when done") is answered by one press of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.text import Msg

from .screen import BODY_LINES

BUTTON_WORD = re.compile(r"\b(UP|DOWN|SELECT|BACK)\b")     # as the buttons are labelled


def names(lines, button: str) -> bool:
    """Do these lines name this button ("SELECT when done", "BACK=no")?"""
    return button.upper() in BUTTON_WORD.findall(" ".join(lines))


@dataclass(frozen=True)
class Block:
    """One message's lines; `stays`: an instruction, shown until the next input."""

    lines: list[str]
    stays: bool = False


@dataclass
class Overlay:
    """Messages over the current mode, a screenful (page) at a time.

    Each page stays `seconds` (or until a button), an instruction's page until a button or a
    tap (`until` None); a message is never split across pages unless it alone is longer than
    a screen. `header`: the header of the step the messages belong to, where the state under
    them has moved on (an input's answer), so the round and step shown are the message's own.
    """

    pages: list[list[str]]
    until: float | None
    seconds: float
    staying: list[bool]           # for each page: it holds an instruction
    header: tuple[str, str] | None = None

    @classmethod
    def of(cls, blocks: list[Block], now: float, seconds: float,
           header: tuple[str, str] | None = None) -> Overlay | None:
        pages: list[list[str]] = []
        staying: list[bool] = []
        for block in blocks:
            for start in range(0, len(block.lines), BODY_LINES):
                chunk = block.lines[start:start + BODY_LINES]
                if pages and len(pages[-1]) + len(chunk) <= BODY_LINES:
                    pages[-1] = pages[-1] + chunk
                    staying[-1] = staying[-1] or block.stays
                else:
                    pages.append(chunk)
                    staying.append(block.stays)
        if not pages:
            return None
        return cls(pages, None if staying[0] else now + seconds, seconds, staying, header)

    @property
    def lines(self) -> list[str]:
        return self.pages[0]

    def names(self, button: str) -> bool:
        """Does the page shown name this button ("SELECT when done", "BACK=no")?"""
        return names(self.lines, button)

    def instructs(self) -> bool:
        """Is an instruction shown or still to come: pages a press must turn first?"""
        return any(self.staying)

    def turn(self, now: float) -> Overlay | None:
        """The next page, from `now` on; None after the last one."""
        if len(self.pages) < 2:
            return None
        until = None if self.staying[1] else now + self.seconds
        return Overlay(self.pages[1:], until, self.seconds, self.staying[1:], self.header)


RECALL = 3      # instructions UP shows again: a turn's worth (a pair, a theft, the payout)


@dataclass
class Recall:
    """The last instructions of the latest turn that gave any, for UP on the play screen."""

    turn: str | None = None       # whose turn gave them
    said: tuple[Msg, ...] = ()

    def note(self, turn: str | None, messages: tuple[Msg, ...], instructions: frozenset[str]) -> None:
        """Keep the instructions among the messages an input gave on `turn`'s turn."""
        given = tuple(m for m in messages if m.key in instructions)
        if not given:
            return
        if turn != self.turn:
            self.turn, self.said = turn, ()
        self.said = (self.said + given)[-RECALL:]
