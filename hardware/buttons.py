"""UP, DOWN, SELECT and BACK: four push buttons to ground, through gpiozero.

A button with a long press reports its short press on release, the only
moment it is known not to be a hold; the others report on press, without
delay. The hold fires while the button is still down.

Debounce, on top of gpiozero's bounce_time (lgpio's, done below Python: an
edge is reported once the level has held for that long), since some kernels
pass sub-millisecond bursts and callbacks can arrive late:

* a clean edge (none in the window before it) counts at once, so a press is
  felt without delay;
* an edge inside the window after a counted one is not dropped: it is
  settled, counted once the level has held for `debounce_s`. A release that
  comes too soon after its press still releases the button (the next press
  is not lost), and a chattering release, whatever it catches between
  bounces, ends where the level rests: no phantom press.

A button already down when the buttons open (stuck, or shorted to ground)
is said once in the log and listed in `held_at_start`; it counts from its
first release, which itself reports nothing.

Callbacks arrive on gpiozero's threads, and settling on a timer thread;
`emit` must be thread-safe (``queue.Queue.put`` is).

    events = queue.Queue()
    buttons = Buttons(events.put, {"UP": 5, "DOWN": 6, "SELECT": 13, "BACK": 19})
    events.get()                 # ButtonPressed("UP"), ButtonHeld("BACK"), ...
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from hardware.events import BACK, BUTTON_NAMES, DOWN, SELECT, UP, ButtonHeld, ButtonPressed, HardwareEvent
from hardware.pins import Claim, check_pins

log = logging.getLogger(__name__)

DEFAULT_PINS = {UP: 5, DOWN: 6, SELECT: 13, BACK: 19}

Timer = Callable[[float, Callable[[], None]], None]     # call this after that many seconds


def _thread_timer(seconds: float, call: Callable[[], None]) -> None:
    timer = threading.Timer(seconds, call)
    timer.daemon = True
    timer.start()


class _ButtonState:
    """One button's level as the player meant it, from the edges gpiozero reports."""

    def __init__(self, name: str, emit: Callable[[HardwareEvent], None], *, holdable: bool,
                 debounce_s: float, clock: Callable[[], float], timer: Timer):
        self.name, self._emit, self._holdable = name, emit, holdable
        self._debounce_s, self._clock, self._timer = debounce_s, clock, timer
        self._lock = threading.Lock()
        self._level = False               # down, as the last edge said
        self._down = self._held = False   # down, as counted
        self._edge_at = self._counted_at = float("-inf")
        self._settling = self._stuck = self.closed = False

    def held_at_start(self) -> None:
        """Down before anyone could press it: it counts from its release on."""
        self._level = self._down = self._stuck = True

    def edge(self, down: bool) -> None:
        with self._lock:
            now = self._clock()
            # clean: nothing moved in the window before it, neither an edge nor a count
            clean = min(now - self._edge_at, now - self._counted_at) >= self._debounce_s
            self._level, self._edge_at = down, now
            if clean:
                report, start_timer = self._count(now), False
            else:
                report, start_timer = None, not self._settling
                self._settling = True
        if report:
            self._emit(report)
        if start_timer:
            self._timer(self._debounce_s, self.settle)

    def settle(self) -> None:
        """The timer's call: count the level if it held for the whole window, else wait on."""
        with self._lock:
            now = self._clock()
            left = self._edge_at + self._debounce_s - now
            report = None
            if left <= 0:
                self._settling = False
                report = self._count(now)
        if left > 0:
            self._timer(left, self.settle)
        elif report:
            self._emit(report)

    def held(self) -> None:
        with self._lock:
            if not self._down or self._stuck or self.closed:
                return
            self._held = True
        self._emit(ButtonHeld(self.name))

    def _count(self, now: float) -> HardwareEvent | None:
        """Take the level as the button's state; the event it makes, if any (lock held)."""
        if self._level == self._down or self.closed:
            return None
        self._down, self._counted_at = self._level, now
        if self._down:
            self._held = False
            return None if self._holdable else ButtonPressed(self.name)
        was_stuck, self._stuck = self._stuck, False
        if self._holdable and not self._held and not was_stuck:
            return ButtonPressed(self.name)
        return None


class Buttons:
    """The four buttons on BCM pins, events into `emit` until `close()`.

    Buttons close to ground with the internal pull-ups; ``pull_up=False`` for
    buttons wired to 3.3 V (with pull-downs).

    ``claims`` maps pins owned by buses and other parts to a description
    (see `hardware.pins.bus_claims`); a button on one of them is refused
    before any pin is touched. `clock` and `timer` (call a function after a
    delay) are the settling's; tests give virtual ones.
    """

    def __init__(self, emit: Callable[[HardwareEvent], None], pins: Mapping[str, int] = DEFAULT_PINS,
                 *, pull_up: bool = True, hold_s: float = 1.0, hold_buttons: tuple[str, ...] = (SELECT, BACK),
                 debounce_s: float = 0.02, claims: Mapping[int, Claim] | None = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 timer: Timer = _thread_timer):
        if sorted(pins) != sorted(BUTTON_NAMES):
            raise ValueError(f"buttons need pins for exactly {', '.join(BUTTON_NAMES)}")
        check_pins(pins, claims or {})
        from gpiozero import Button

        self._buttons: list[Any] = []
        self._states: list[_ButtonState] = []
        self.held_at_start: list[str] = []
        for name, pin in pins.items():
            state = _ButtonState(name, emit, holdable=name in hold_buttons,
                                 debounce_s=debounce_s, clock=clock, timer=timer)
            button = Button(pin, pull_up=pull_up, bounce_time=debounce_s or None,
                            hold_time=hold_s, pin_factory=pin_factory)
            if button.is_pressed:
                state.held_at_start()
                self.held_at_start.append(name)
                log.warning("buttons: %s (GPIO %d) is down at start: stuck, or wired to ground; "
                            "it counts once released", name, pin)
            button.when_pressed = partial(state.edge, True)
            button.when_released = partial(state.edge, False)
            if name in hold_buttons:
                button.when_held = state.held
            self._buttons.append(button)
            self._states.append(state)

    def close(self) -> None:
        for state in self._states:
            state.closed = True           # a settling still on its timer reports nothing
        for button in self._buttons:
            button.close()
        self._buttons, self._states = [], []
