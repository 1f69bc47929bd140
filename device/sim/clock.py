"""Simulated time: it moves only when the simulator's input says so."""
from __future__ import annotations

import datetime

from device.clock import parse


class VirtualClock:
    """Simulated time: the monotonic face moves only when the input says `wait` (`advance`);
    the wall clock moves with it, and `jump` sets the wall clock alone, as the network time
    does on a Pi. Calling the clock gives its monotonic time (for parts that take a plain
    function, like the reader's presence)."""

    def __init__(self, start: float = 0.0, wall: str | None = None) -> None:
        """`wall`: the wall clock at `start`; the real local time if not given."""
        self.t = start
        given = parse(wall)
        self._wall_at_start = given or datetime.datetime.now().astimezone().replace(microsecond=0)
        self._start = start

    def __call__(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t

    def wall(self) -> str:
        moved = datetime.timedelta(seconds=self.t - self._start)
        return (self._wall_at_start + moved).isoformat(timespec="seconds")

    def advance(self, seconds: float) -> None:
        self.t += seconds

    def advance_to(self, when: float) -> None:
        """Move on to `when` exactly (a deadline), never back."""
        self.t = max(self.t, when)

    def jump(self, seconds: float) -> None:
        """Set the wall clock `seconds` on (back, if negative); monotonic time does not move."""
        self._wall_at_start += datetime.timedelta(seconds=seconds)

    def set_wall(self, wall: str) -> None:
        """Set the wall clock to `wall` (ISO 8601); monotonic time does not move."""
        given = parse(wall)
        if given is None:
            raise ValueError(f"not an ISO 8601 time: {wall!r}")
        self._wall_at_start = given - datetime.timedelta(seconds=self.t - self._start)
