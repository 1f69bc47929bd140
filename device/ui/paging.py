"""A text longer than its place, a page at a time: no word is ever dropped.

`pages` breaks a text into pages of at most `room` lines, between phrases where it can (after
a full stop, a comma, a colon...), so a page ends where a reader may pause; a phrase longer
than a page goes on over the next one. Every page but the last keeps its last column free
for the mark that says more follows. `Pager` shows one page of a text at a time: a page turns
by itself every few seconds, round to the first again, and on the press its screen gives it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .screen import COLUMNS, wrap

PAGE_SECONDS = 4.0          # long enough to read four lines at arm's length
EPSILON = 1e-6
# A phrase ends after punctuation and a space, or at a line break: a page may end there. Not
# at a colon: what follows it ("Ann: tap your card") is what it announces.
PHRASE_END = re.compile(r"((?<=[.,;!?)]) +|\n)")


def phrases(text: str) -> list[tuple[str, str]]:
    """The text's phrases, each with what joins it to the one before: "", a space or a line
    break."""
    parts = PHRASE_END.split(text)
    return [(" " if n and parts[n - 1] != "\n" else "\n" if n else "", part)
            for n, part in enumerate(parts) if n % 2 == 0 and part]


def flowed(text: str) -> str:
    """The text with the line breaks a catalog made for names of a few letters given up; a
    break stays where a sentence may end ("...your cards\nBob plays next": the line ends
    with . ! ? or the next begins with a capital), so two never run together, and after a
    label's colon, so what it names stays whole ("the discard:\n7 of clubs")."""
    lines = text.split("\n")
    joined = lines[0]
    for line in lines[1:]:
        kept = joined[-1:] in ".!?:" or line[:1].isupper()
        joined += ("\n" if kept else " ") + line
    return joined


def pages(text: str, room: int, width: int = COLUMNS, marked: bool = False) -> list[list[str]]:
    """`text` in pages of at most `room` lines of `width` characters: one page when it fits
    (the breaks made for short names given up where a line of it does not fit), else pages
    of whole phrases, each but the last with a column left for the mark (`marked`: `width`
    has left it already)."""
    return [list(page) for page in _pages(text, room, width, marked)]


@lru_cache(maxsize=1024)
def _pages(text: str, room: int, width: int, marked: bool) -> tuple[tuple[str, ...], ...]:
    """The pages, worked out once for a text: a prompt's screen asks them at each frame."""
    return tuple(tuple(page) for page in _paged(text, room, width, marked))


def _paged(text: str, room: int, width: int, marked: bool) -> list[list[str]]:
    own = wrap(text, width)
    if room < 1 or len(own) <= room and len(own) == len(text.split("\n")):
        return [own]                  # the catalog's lines, each whole on its own line
    text = flowed(text)
    whole = wrap(text, width)
    if len(whole) <= room:
        return [whole]
    narrow = width if marked else width - 1
    found: list[list[str]] = []
    page = ""
    for joint, phrase in phrases(text):
        candidate = page + joint + phrase if page else phrase
        if len(wrap(candidate, narrow)) <= room:
            page = candidate
            continue
        if page and 2 * len(wrap(page, narrow)) >= room:
            found.append(wrap(page, narrow))
            lines = wrap(phrase, narrow)
        else:                                  # a short page would be lost room: fill it
            lines = wrap(candidate, narrow)
        while len(lines) > room:               # a phrase longer than a page: its lines go on
            found.append(lines[:room])
            lines = wrap(" ".join(lines[room:]), narrow)
        page = "\n".join(lines)
    if page:
        found.append(wrap(page, narrow))
    return found


@dataclass
class Pager:
    """One page of a text at a time. The first page shows first whenever the text changes;
    then a page turns every PAGE_SECONDS, round to the first, or at `turn` (DOWN)."""

    text: str = ""
    count: int = 1
    first: int = 0
    since: float = 0.0

    def page(self, text: str, room: int, now: float) -> tuple[list[str], bool]:
        """The page of `text` shown at `now` in `room` lines, and whether more follows it."""
        found = pages(text, room)
        if text != self.text:
            self.text, self.first, self.since = text, 0, now
        self.count = len(found)
        shown = self.shown(now)
        return found[shown], shown < self.count - 1

    def shown(self, now: float) -> int:
        if self.count < 2:
            return 0
        return (self.first + self._turns(now)) % self.count

    def later(self, now: float) -> bool:
        """Is a page after the first shown (marked: the text began before it)?"""
        return self.shown(now) > 0

    def turn(self, now: float) -> bool:
        """DOWN: the next page, from now on; False on the last page (or the only one)."""
        shown = self.shown(now)
        if shown >= self.count - 1:
            return False
        self.first, self.since = shown + 1, now
        return True

    def deadline(self, now: float) -> float | None:
        """When the page shown turns by itself; None for a text of one page."""
        if self.count < 2:
            return None
        return self.since + PAGE_SECONDS * (self._turns(now) + 1)

    def _turns(self, now: float) -> int:
        """Pages turned by themselves since `since`; a turn due now counts, whatever the
        rounding of the clock's sums (9.4 + 8 - 9.4 is a hair under 8)."""
        return int((now - self.since + EPSILON) // PAGE_SECONDS)
