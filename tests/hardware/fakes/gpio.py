"""Virtual time for button tests, and a push button on gpiozero's MockFactory that can
debounce as lgpio does.

`FakeTime` is a clock and a timer (call this after that long) that only move when the
test says `advance`; due calls run in time order, so a test reads like a scope trace.

`ButtonPin` is a MockPin with a finger on it: `finger = True` holds the contact
closed whatever the pull resistor (a button held as the daemon starts). MockPin
stores bounce_time and ignores it; on a `ButtonFactory(debounce=True)` the pin
applies it as lgpio's gpio_set_debounce_micros does: an edge is reported only
once the level has stayed for the bounce time, and reading the pin gives the
level on the wire now. `drive_low()` / `drive_high()` are the wire's level,
bounces included.
"""
from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPin

SETTLED = 1e-9          # float slack when a level has held exactly the bounce time


class FakeTime:
    def __init__(self, now: float = 0.0):
        self.now = now
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    def call_after(self, seconds: float, call: Callable[[], None]) -> None:
        heapq.heappush(self._due, (self.now + seconds, next(self._order), call))

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while self._due and self._due[0][0] <= end + SETTLED:
            at, _, call = heapq.heappop(self._due)
            self.now = max(self.now, at)
            call()
        self.now = end


class ButtonPin(MockPin):
    def __init__(self, factory, info):
        self.finger = False
        self._wire = True                    # the level on the wire now
        self._wire_since = factory.time()
        super().__init__(factory, info)

    def _set_pull(self, value):
        super()._set_pull(value)             # drives the pin to the pull's level...
        if self.finger:                      # ...unless the contact holds it the other way
            self.drive_high() if value == "down" else self.drive_low()

    def _get_state(self):
        return self._wire if self._debouncing() else super()._get_state()

    def drive_high(self):
        self._drive(True)

    def drive_low(self):
        self._drive(False)

    def _drive(self, level: bool) -> None:
        if not self._debouncing():
            self._wire = level
            super().drive_high() if level else super().drive_low()
            return
        if level != self._wire:
            self._wire, self._wire_since = level, self.factory.time()
            self.factory.time.call_after(self._bounce, self._settle)

    def _debouncing(self) -> bool:
        return self.factory.debounce and self._bounce is not None and self.function == "input"

    def _settle(self) -> None:
        """lgpio's side: the level held the whole bounce time, so its edge is reported."""
        if self.factory.time() - self._wire_since + SETTLED >= self._bounce:
            super().drive_high() if self._wire else super().drive_low()


class ButtonFactory(MockFactory):
    """MockFactory of ButtonPins on `time`; `debounce=True` models lgpio's debounce."""

    def __init__(self, time: FakeTime, *, debounce: bool):
        super().__init__(pin_class=ButtonPin)
        self.time, self.debounce = time, debounce
