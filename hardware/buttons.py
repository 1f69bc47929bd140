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

UP and DOWN repeat while held: a press again after `repeat_s[0]`, then again
and again, each wait shorter by a quarter down to `repeat_s[1]` (0.5 s, then
0.3 s, 0.225 s ... 0.05 s), so a number runs on faster the longer it is held.
The repeats run on the same timer as settling. A button held past `stuck_s`
(30 s: nobody means that many presses) is taken as stuck: it stops repeating,
says so once in the log and emits ButtonStuck, and counts again from its
release (ButtonStuck with stuck False).

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

from hardware.events import (
    BACK,
    BUTTON_NAMES,
    DOWN,
    SELECT,
    UP,
    ButtonHeld,
    ButtonPressed,
    ButtonStuck,
    HardwareEvent,
)
from hardware.pins import Claim, check_pins

log = logging.getLogger(__name__)

DEFAULT_PINS = {UP: 5, DOWN: 6, SELECT: 13, BACK: 19}
REPEAT_S = (0.5, 0.05)      # held UP/DOWN: the first repeat's wait, the shortest wait
FIRST_GAP = 0.3             # the wait after the first repeat; each next one a quarter shorter
SPEED_UP = 0.75
STUCK_S = 30.0              # held UP/DOWN this long: stuck, no more repeats until released

Timer = Callable[[float, Callable[[], None]], None]     # call this after that many seconds


def _thread_timer(seconds: float, call: Callable[[], None]) -> None:
    timer = threading.Timer(seconds, call)
    timer.daemon = True
    timer.start()


class _ButtonState:
    """One button's level as the player meant it, from the edges gpiozero reports."""

    def __init__(self, name: str, emit: Callable[[HardwareEvent], None], *, holdable: bool,
                 debounce_s: float, clock: Callable[[], float], timer: Timer,
                 repeat_s: tuple[float, float] | None = None, stuck_s: float = STUCK_S):
        self.name, self._emit, self._holdable = name, emit, holdable
        self._repeat_s, self._stuck_s = repeat_s, stuck_s
        self._pressed_at = 0.0
        self.jammed = False               # held past stuck_s: repeats stopped until released
        self._presses = 0                 # counted presses: a repeat of an older one stops
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
            press = self._presses
        if report:
            self._emit(report)
            self._repeat_later(report, press)
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
            press = self._presses
        if left > 0:
            self._timer(left, self.settle)
        elif report:
            self._emit(report)
            self._repeat_later(report, press)

    def _repeat_later(self, report: HardwareEvent, press: int) -> None:
        """A press of a repeating button: its first repeat, if it is still down by then."""
        if self._repeat_s is not None and isinstance(report, ButtonPressed):
            self._timer(self._repeat_s[0], partial(self.repeat, press, FIRST_GAP))

    def repeat(self, press: int, gap: float) -> None:
        """The timer's call while UP or DOWN is held: the press again, and the next one sooner;
        past `stuck_s` nothing more until it is released."""
        with self._lock:
            still = self._down and press == self._presses and not self.closed
            jams = still and self._clock() - self._pressed_at >= self._stuck_s
            self.jammed = self.jammed or jams
        if jams:
            log.warning("buttons: %s held down for %.0f s: stuck? It repeats no more until "
                        "released", self.name, self._stuck_s)
            self._emit(ButtonStuck(self.name))
        elif still and self._repeat_s is not None:
            self._emit(ButtonPressed(self.name))
            self._timer(gap, partial(self.repeat, press, max(gap * SPEED_UP, self._repeat_s[1])))

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
            self._presses += 1
            self._pressed_at = now
            return None if self._holdable else ButtonPressed(self.name)
        if self.jammed:
            self.jammed = False
            log.warning("buttons: %s released: it works again", self.name)
            return ButtonStuck(self.name, stuck=False)
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
    delay) are the settling's and the repeats'; tests give virtual ones.
    ``repeat_buttons`` repeat while held (`repeat_s`: the first wait, the shortest),
    until held past ``stuck_s``; `stuck` names the ones held past it now.
    """

    def __init__(self, emit: Callable[[HardwareEvent], None], pins: Mapping[str, int] = DEFAULT_PINS,
                 *, pull_up: bool = True, hold_s: float = 1.0, hold_buttons: tuple[str, ...] = (SELECT, BACK),
                 debounce_s: float = 0.02, claims: Mapping[int, Claim] | None = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 timer: Timer = _thread_timer, repeat_buttons: tuple[str, ...] = (UP, DOWN),
                 repeat_s: tuple[float, float] = REPEAT_S, stuck_s: float = STUCK_S):
        if sorted(pins) != sorted(BUTTON_NAMES):
            raise ValueError(f"buttons need pins for exactly {', '.join(BUTTON_NAMES)}")
        check_pins(pins, claims or {})
        from gpiozero import Button

        self._buttons: list[Any] = []
        self._states: list[_ButtonState] = []
        self.held_at_start: list[str] = []
        for name, pin in pins.items():
            state = _ButtonState(name, emit, holdable=name in hold_buttons,
                                 debounce_s=debounce_s, clock=clock, timer=timer,
                                 repeat_s=repeat_s if name in repeat_buttons else None,
                                 stuck_s=stuck_s)
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

    @property
    def stuck(self) -> list[str]:
        """The buttons held past `stuck_s`, not released since."""
        return [state.name for state in self._states if state.jammed]

    def close(self) -> None:
        for state in self._states:
            state.closed = True           # a settling still on its timer reports nothing
        for button in self._buttons:
            _wake_hold_thread(button)
            button.close()
        self._buttons, self._states = [], []


def _wake_hold_thread(button) -> None:
    """Tell gpiozero's hold thread to stop and wake it: left to itself it looks for a stop only
    every 0.1 s, and `close` waits for it, so closing the four buttons took up to 0.4 s (each
    stop of the service, each start of the simulator's parts again). A thread in a hold goes on
    waiting for the release or the hold time, as before."""
    thread = getattr(button, "_hold_thread", None)
    stopping, holding = getattr(thread, "stopping", None), getattr(thread, "holding", None)
    if stopping is not None and holding is not None:
        stopping.set()
        holding.set()
