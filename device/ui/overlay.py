"""Messages over the current mode: the engine's answers, the device's refusals and notes.

They show a screenful (page) at a time, a mark on every page but the last. A page that only
informs goes after some seconds or at a button; a page that asks the table to move cards or
tokens (the game's instructions) stays until the next input, so nobody misses what to do. A
message that names a button ("SELECT when done") is answered by one press of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.text import Msg

from .paging import pages as paged
from .screen import BODY_LINES, COLUMNS

BUTTON_WORD = re.compile(r"\b(UP|DOWN|SELECT|BACK)\b")     # as the buttons are labelled


def names(lines, button: str) -> bool:
    """Do these lines name this button ("SELECT when done", "BACK=no")?"""
    return button.upper() in BUTTON_WORD.findall(" ".join(lines))


@dataclass(frozen=True)
class Block:
    """One message's text; `stays`: an instruction, shown until the next input."""

    text: str
    stays: bool = False


@dataclass
class Overlay:
    """Messages over the current mode, a screenful (page) at a time.

    Each page stays `seconds` (or until a button), an instruction's page until a button or a
    tap (`until` None). A message is never split across pages unless it alone is longer than
    a screen, and then between phrases (paging.py). `header`: the header the messages are
    shown under, where the mode's own would not agree with them (a game just over).
    """

    pages: list[list[str]]
    until: float | None
    seconds: float
    staying: list[bool]           # for each page: it holds an instruction
    header: tuple[str, str] | None = None

    @classmethod
    def of(cls, blocks: list[Block], now: float, seconds: float,
           header: tuple[str, str] | None = None) -> Overlay | None:
        pages, staying = _pages(blocks, COLUMNS, False)
        if len(pages) > 1:                    # the mark takes every page's last column
            pages, staying = _pages(blocks, COLUMNS - 1, True)
        if not pages:
            return None
        return cls(pages, None if staying[0] else now + seconds, seconds, staying, header)

    @property
    def more(self) -> bool:
        """Does a page follow the one shown?"""
        return len(self.pages) > 1

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


def repeats(message: str, prompt: str) -> bool:
    """Does the prompt begin with what the message says ("Storm!" over "Storm! Discard it")?
    Then the message is not shown over it: the prompt says it and more."""
    said, asked = " ".join(message.split()), " ".join(prompt.split())
    return bool(said) and asked.startswith(said)


def _pages(blocks: list[Block], width: int,
           marked: bool) -> tuple[list[list[str]], list[bool]]:
    """The blocks' pages, `width` columns wide (`marked`: the mark's column left out of it
    already), and which of them hold an instruction: a message joins the page before when
    it fits there whole."""
    pages: list[list[str]] = []
    staying: list[bool] = []
    for block in blocks:
        own = paged(block.text, BODY_LINES, width, marked)
        if len(own) == 1 and pages and len(pages[-1]) + len(own[0]) <= BODY_LINES:
            pages[-1] = pages[-1] + own[0]
            staying[-1] = staying[-1] or block.stays
            continue
        pages.extend(own)
        staying.extend([block.stays] * len(own))
    return pages, staying


RECALL = 3      # instructions UP shows again: a turn's worth (a pair, a theft, the payout)


@dataclass
class Recall:
    """The last instructions of the latest turn that gave any, for UP on the play screen."""

    turn: str | None = None       # whose turn gave them
    said: tuple[Msg, ...] = ()

    def note(self, turn: str | None, messages: tuple[Msg, ...], instructions: frozenset[str],
             done: Msg | None = None) -> None:
        """Keep the instructions among the messages an input gave on `turn`'s turn; `done`: a
        prompt the input answered with SELECT alone, which told the table what to do first
        (Palourde's Storm: shuffle the Beach)."""
        given = (() if done is None else (done,)) + tuple(m for m in messages
                                                           if m.key in instructions)
        if not given:
            return
        if turn != self.turn:
            self.turn, self.said = turn, ()
        self.said = (self.said + given)[-RECALL:]
