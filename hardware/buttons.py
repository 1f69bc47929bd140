"""UP, DOWN, SELECT and BACK: four push buttons to ground, through gpiozero.

A button with a long press reports
its short press on release, the only moment it is known not to be a hold; the
others report on press, without delay. The hold fires while the button is
still down. On top of gpiozero's bounce_time (done in the kernel with lgpio),
edges closer than `debounce_s` to the last accepted edge are dropped, since
some kernels pass sub-millisecond bursts. Callbacks arrive on gpiozero's
threads; `emit` must be thread-safe (``queue.Queue.put`` is).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from hardware.events import BACK, BUTTON_NAMES, DOWN, SELECT, UP, ButtonHeld, ButtonPressed, HardwareEvent
from hardware.pins import check_pins

DEFAULT_PINS = {UP: 5, DOWN: 6, SELECT: 13, BACK: 19}


class _ButtonState:
    """One button's press / hold / release, guarded against gpiozero's two threads."""

    def __init__(self, name: str, emit: Callable[[HardwareEvent], None], *, holdable: bool,
                 debounce_s: float, clock: Callable[[], float]):
        self._name, self._emit, self._holdable = name, emit, holdable
        self._debounce_s, self._clock = debounce_s, clock
        self._lock = threading.Lock()
        self._down = self._held = False
        self._edge_at = float("-inf")

    def pressed(self) -> None:
        with self._lock:
            now = self._clock()
            if self._down or now - self._edge_at < self._debounce_s:
                return
            self._down, self._held, self._edge_at = True, False, now
            report = not self._holdable
        if report:
            self._emit(ButtonPressed(self._name))

    def held(self) -> None:
        with self._lock:
            if not self._down:
                return
            self._held = True
        self._emit(ButtonHeld(self._name))

    def released(self) -> None:
        with self._lock:
            now = self._clock()
            if not self._down or now - self._edge_at < self._debounce_s:
                return
            self._down, self._edge_at = False, now
            report = self._holdable and not self._held
        if report:
            self._emit(ButtonPressed(self._name))


class Buttons:
    """The four buttons on BCM pins, events into `emit` until `close()`.

    Buttons close to ground with the internal pull-ups; ``pull_up=False`` for
    buttons wired to 3.3 V (with pull-downs).

    ``claims`` maps pins owned by buses and other parts to a description
    (see `hardware.pins.bus_claims`); a button on one of them is refused
    before any pin is touched.
    """

    def __init__(self, emit: Callable[[HardwareEvent], None], pins: Mapping[str, int] = DEFAULT_PINS,
                 *, pull_up: bool = True, hold_s: float = 1.0, hold_buttons: tuple[str, ...] = (SELECT, BACK),
                 debounce_s: float = 0.02, claims: Mapping[int, str] | None = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic):
        if sorted(pins) != sorted(BUTTON_NAMES):
            raise ValueError(f"buttons need pins for exactly {', '.join(BUTTON_NAMES)}")
        check_pins(pins, claims or {})
        from gpiozero import Button

        self._buttons = []
        for name, pin in pins.items():
            state = _ButtonState(name, emit, holdable=name in hold_buttons,
                                 debounce_s=debounce_s, clock=clock)
            button = Button(pin, pull_up=pull_up, bounce_time=debounce_s or None,
                            hold_time=hold_s, pin_factory=pin_factory)
            button.when_pressed, button.when_released = state.pressed, state.released
            if name in hold_buttons:
                button.when_held = state.held
            self._buttons.append(button)

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
