"""The simulator's input lines, one action list per line.

    tap CARD_ID | tap uid:04A1B2C3    a tag is placed, then lifted
    place CARD_ID | place uid:...     hold a tag on the reader
    lift                              take it off
    press up|down|select|back         a short press
    hold select|back                  a long press
    wait SECONDS                      virtual time passes; due timers fire

A line is read as a person typed it: bytes that are not UTF-8, a control
character, an endless line or a number that is no time are each refused in one
line that says why, and the refused line changes nothing.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from device.inputs import ButtonHeld, ButtonPressed
from hardware.presence import Presence
from hardware.sim import SimReader

BUTTONS = ("up", "down", "select", "back")
HOLDABLE = ("select", "back")      # as on the table: only these two report a long press
LONGEST = 200                      # characters in a line: card ids and UIDs are short
LONGEST_WAIT = 86400.0             # a day: longer than any timer the device sets
SHOWN = 40                         # characters of a refused word a complaint repeats
USAGE = "(tap CARD, place CARD, lift, press BUTTON, hold BUTTON, wait SECONDS)"


class SimInputError(ValueError):
    pass


@dataclass(frozen=True)
class Wait:
    seconds: float


def read_lines(stream: BinaryIO | TextIO) -> Iterator[str | SimInputError]:
    """The lines of a byte stream (or of one already decoded) as text, without their line
    ends; a line that cannot be text comes as the error saying why, and a line past LONGEST
    is not kept in memory."""
    while line := stream.readline(LONGEST + 1):
        if len(line) > LONGEST and not _ended(line):
            while (rest := stream.readline(65536)) and not _ended(rest):
                pass
            yield SimInputError(f"a line has at most {LONGEST} characters")
            continue
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                yield SimInputError("the line is not UTF-8 text")
                continue
        yield line.rstrip("\r\n")


def _ended(line: str | bytes) -> bool:
    """The line came whole, with its line end."""
    return line.endswith("\n") if isinstance(line, str) else line.endswith(b"\n")


def shown(word: str) -> str:
    """A word of a refused line as a complaint repeats it: quoted, escaped, cut short."""
    text = repr(word)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


class SimReaderField:
    """The simulated reader and what lies on it, read through the real presence tracker.

    A tap is a tag placed, polled once, lifted and polled until presence lets it go,
    all at the same virtual instant: the same card tapped again on the same instant
    is the reader's debounce at work. (The simulator moves its clock on at each line,
    as hands take time at a table: play.LINE_SECONDS.)
    """

    def __init__(self, uid_of: Callable[[str], str | None], *, misses: int = 3,
                 debounce_ms: float = 1500, clock: Callable[[], float] = lambda: 0.0) -> None:
        self.uid_of = uid_of
        self.reader = SimReader()
        self.presence = Presence(misses=misses, debounce_ms=debounce_ms, clock=clock)
        self.misses = misses

    def _polls(self, count: int) -> list:
        events: list = []
        for _ in range(count):
            events += self.presence.update(self.reader.poll())
        return events

    def parse(self, line: str) -> list:
        if len(line) > LONGEST:
            raise SimInputError(f"a line has at most {LONGEST} characters")
        odd = next((c for c in line if not (c.isprintable() or c in " \t")), None)
        if odd is not None:
            raise SimInputError(f"the line holds a control character (U+{ord(odd):04X})")
        words = [] if line.lstrip().startswith("#") else line.split()
        if not words:
            return []
        verb, args = words[0].lower(), words[1:]
        if verb in ("tap", "place"):
            uid = self._uid(args)
            self.reader.place(uid)
            events = self._polls(1)
            if verb == "tap":
                self.reader.lift()
                events += self._polls(self.misses)
            return events
        if verb == "lift" and not args:
            self.reader.lift()
            return self._polls(self.misses)
        if verb in ("press", "hold"):
            return [self._button(verb, args)]
        if verb == "wait" and len(args) == 1:
            return [Wait(self._seconds(args[0]))]
        raise SimInputError(f"not understood: {shown(line.strip())} {USAGE}")

    def _button(self, verb: str, args: list[str]):
        name = args[0].lower() if len(args) == 1 else None
        if name not in BUTTONS:
            raise SimInputError(f"{verb} takes one button: {', '.join(BUTTONS)}")
        if verb == "press":
            return ButtonPressed(name.upper())
        if name not in HOLDABLE:
            raise SimInputError(f"{name} has no long press: hold {' or '.join(HOLDABLE)}, "
                                f"or press {name}")
        return ButtonHeld(name.upper())

    @staticmethod
    def _seconds(word: str) -> float:
        try:
            seconds = float(word)
        except ValueError:
            seconds = math.nan
        if not 0 <= seconds <= LONGEST_WAIT:       # nan, inf, negative, or past a day
            raise SimInputError(f"wait takes seconds from 0 to {LONGEST_WAIT:g}, "
                                f"not {shown(word)}")
        return seconds

    def _uid(self, args: list[str]) -> str:
        if len(args) != 1:
            raise SimInputError("tap and place take one card id or uid:HEX")
        word = args[0]
        if word.lower().startswith("uid:"):
            uid = word[4:].upper()
            if len(uid) not in (8, 14, 20) or any(c not in "0123456789ABCDEF" for c in uid):
                raise SimInputError(f"{shown(word)}: a UID is 8, 14 or 20 hex digits")
            return uid
        found = self.uid_of(word)
        if found is None:
            raise SimInputError(f"{shown(word)}: no such card in any simulated deck")
        return found
