"""Simulated time: it moves only when the simulator's input says so."""
from __future__ import annotations


class VirtualClock:
    """Simulated time: it moves only when the input says `wait`."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
