"""The simulator's input lines, one action list per line.

    tap CARD_ID | tap uid:04A1B2C3    a tag is placed, then lifted
    place CARD_ID | place uid:...     hold a tag on the reader
    lift                              take it off
    press up|down|select|back         a short press
    hold select|back                  a long press
    wait SECONDS                      virtual time passes; due timers fire
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from device.inputs import ButtonHeld, ButtonPressed
from hardware.presence import Presence
from hardware.sim import SimReader

BUTTONS = ("up", "down", "select", "back")


class SimInputError(ValueError):
    pass


@dataclass(frozen=True)
class Wait:
    seconds: float


class SimReaderField:
    """The simulated reader and what lies on it, read through the real presence tracker.

    A tap is a tag placed, polled once, lifted and polled until presence lets it go,
    all at the same virtual instant: so tapping the same card twice without a `wait`
    is one tap, as the debounce wants.
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
        words = [] if line.lstrip().startswith("#") else line.split()
        if not words:
            return []
        verb, args = words[0].lower(), words[1:]
        if verb in ("tap", "place"):
            self.reader.place(self._uid(args))
            events = self._polls(1)
            if verb == "tap":
                self.reader.lift()
                events += self._polls(self.misses)
            return events
        if verb == "lift" and not args:
            self.reader.lift()
            return self._polls(self.misses)
        if verb in ("press", "hold") and len(args) == 1 and args[0].lower() in BUTTONS:
            name = args[0].upper()
            return [ButtonPressed(name) if verb == "press" else ButtonHeld(name)]
        if verb in ("press", "hold"):
            raise SimInputError(f"{verb} takes one button: {', '.join(BUTTONS)}")
        if verb == "wait" and len(args) == 1:
            try:
                seconds = float(args[0])
            except ValueError:
                seconds = -1.0
            if seconds >= 0:
                return [Wait(seconds)]
        raise SimInputError(f"not understood: {line.strip()!r} "
                            "(tap CARD, place CARD, lift, press BUTTON, hold BUTTON, wait S)")

    def _uid(self, args: list[str]) -> str:
        if len(args) != 1:
            raise SimInputError("tap and place take one card id or uid:HEX")
        word = args[0]
        if word.lower().startswith("uid:"):
            uid = word[4:].upper()
            if len(uid) not in (8, 14, 20) or any(c not in "0123456789ABCDEF" for c in uid):
                raise SimInputError(f"{word}: a UID is 8, 14 or 20 hex digits")
            return uid
        uid = self.uid_of(word)
        if uid is None:
            raise SimInputError(f"{word}: no such card in any simulated deck")
        return uid
