"""The table's time: one clock with two faces.

`monotonic()` measures. Every duration and every "since" (a game's length, idle timers, the
prompts' countdowns, the time at the table) is taken on it, because it never jumps.
`wall()` labels: the local date and time to the second, ISO 8601, as a person reads it.

A Pi has no real-time clock: it boots with the time it last saved, then jumps when the
network time arrives, forward by hours or back. A label written before the jump is off
by the jump; `redate` finds that out from the monotonic time the label was taken at, and
gives the label the wall clock would have written had it been right.

    clock = SystemClock()
    began = stamp(clock)              # "2026-12-03T11:00:00+01:00", and when on the monotonic
    later = redate(began, clock)      # the same, unless the wall clock was set since
"""
from __future__ import annotations

import datetime
import math
import time
from dataclasses import dataclass
from typing import Protocol

JUMP_S = 60.0       # wall and monotonic time parting by more than this: the wall clock was set


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds on a clock that never jumps (from an arbitrary start)."""

    def wall(self) -> str:
        """The local wall-clock time, ISO 8601 to the second: a label, never a measure."""


class SystemClock:
    """The Pi's clocks."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass(frozen=True)
class Stamp:
    """A wall-clock label and when it was taken on the monotonic clock (None: in another run
    of the table, whose monotonic time is not this one's)."""
    label: str
    at: float | None
    corrected: bool = False       # re-dated after the wall clock jumped


def stamp(clock: Clock) -> Stamp:
    return Stamp(clock.wall(), clock.monotonic())


def redate(mark: Stamp, clock: Clock) -> Stamp:
    """`mark` as the wall clock now says it was: the same stamp unless the wall clock jumped
    since it was taken; then its label moves by the jump and it says it was corrected."""
    if mark.at is None:
        return mark
    age = clock.monotonic() - mark.at
    now = parse(clock.wall())
    then = parse(mark.label)
    if now is None or then is None:
        return mark
    try:
        apart = (now - then).total_seconds() - age
    except TypeError:             # one label with a zone, one without: not comparable
        return mark
    if abs(apart) <= JUMP_S:
        return mark
    return Stamp((now - datetime.timedelta(seconds=age)).isoformat(timespec="seconds"),
                 mark.at, True)


def parse(label: object) -> datetime.datetime | None:
    """A label's time, or None if it is not an ISO 8601 text."""
    if not isinstance(label, str):
        return None
    try:
        return datetime.datetime.fromisoformat(label)
    except ValueError:
        return None


def whole_seconds(seconds: float) -> int:
    """Seconds as the messages and the history give them: whole, never negative."""
    return max(0, math.floor(seconds + 0.5)) if math.isfinite(seconds) else 0
