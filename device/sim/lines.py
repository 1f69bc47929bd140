"""The simulator's input lines, one action list per line, in the language event scripts speak
too (engine.core.script, docs/scripts.md):

    tap CARD_ID | tap uid:04A1B2C3    a tag is placed, then lifted
    place CARD_ID | place uid:...     hold a tag on the reader
    lift                              take it off
    press up|down|select|back         a short press
    hold select|back                  a long press
    hold up|down [SECONDS]            held down (2 s unless said): it repeats, faster and faster
    wait SECONDS                      virtual time passes; due timers fire
    choose ID | select | back         the prompt answered as it is, as a script does
    undo | redo

A line is read as a person typed it: bytes that are not UTF-8, a control
character, an endless line or a number that is no time are each refused in one
line that says why, and the refused line changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from device.actions import Play, Redo, Undo
from device.inputs import ButtonHeld, ButtonPressed
from engine.core.script import REPEATING, InputError, InputLine, input_line, line_words
from hardware.buttons import FIRST_GAP, REPEAT_S, SPEED_UP
from hardware.presence import Presence
from hardware.sim import SimReader

LONGEST = 200                      # characters in a line: card ids and UIDs are short
SHOWN = 40                         # characters of a refused word a complaint repeats


class SimInputError(ValueError):
    pass


@dataclass(frozen=True)
class Wait:
    seconds: float


@dataclass(frozen=True)
class Answer:
    """A line that answers the running game as it is, not through the buttons."""

    action: Play | Undo | Redo


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


def held(button: str, seconds: float) -> list:
    """UP or DOWN held for `seconds`: its press, then its repeats as the buttons make them
    (the first after REPEAT_S[0], each next one sooner down to REPEAT_S[1]), time passing
    between them."""
    events: list = [ButtonPressed(button)]
    wait, gap, spent = REPEAT_S[0], FIRST_GAP, 0.0
    while spent + wait <= seconds:
        events += [Wait(wait), ButtonPressed(button)]
        spent += wait
        wait, gap = gap, max(gap * SPEED_UP, REPEAT_S[1])
    return events + ([Wait(seconds - spent)] if seconds > spent else [])


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
        try:
            words = line_words(line)
            return self.act(input_line(words)) if words else []
        except InputError as exc:
            raise SimInputError(str(exc)) from None

    def act(self, line: InputLine) -> list:
        """What one checked line does: reader events, a button, time, or an answer."""
        if line.verb in ("tap", "place"):
            self.reader.place(self._uid(line.arg))
            events = self._polls(1)
            if line.verb == "tap":
                self.reader.lift()
                events += self._polls(self.misses)
            return events
        if line.verb == "lift":
            self.reader.lift()
            return self._polls(self.misses)
        if line.verb == "hold" and line.arg in REPEATING:
            return held(line.arg.upper(), line.seconds)
        if line.verb in ("press", "hold"):
            button = ButtonPressed if line.verb == "press" else ButtonHeld
            return [button(line.arg.upper())]
        if line.verb == "wait":
            return [Wait(line.seconds)]
        event = line.event()
        if event is not None:
            return [Answer(Play(event))]
        return [Answer(Undo() if line.verb == "undo" else Redo())]

    def _uid(self, word: str) -> str:
        if word.startswith("uid:"):                # checked by the line's parser
            return word[4:]
        found = self.uid_of(word)
        if found is None:
            raise SimInputError(f"{shown(word)}: no such card in any simulated deck")
        return found
