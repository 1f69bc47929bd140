"""Buttons on gpiozero's MockFactory: press, hold, debounce, pin check."""
from __future__ import annotations

import queue

import pytest

from hardware.buttons import DEFAULT_PINS, Buttons
from hardware.events import ButtonHeld, ButtonPressed
from hardware.pins import PinConflict, bus_claims


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def buttons(mock_factory, events, clock):
    made = Buttons(events.put, hold_s=0.05, clock=clock)
    yield made
    made.close()


def pin(factory, name):
    return factory.pin(DEFAULT_PINS[name])


def drained(events):
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


def test_up_and_down_report_on_press(buttons, mock_factory, events, clock):
    up = pin(mock_factory, "UP")
    up.drive_low()
    assert drained(events) == [ButtonPressed("UP")]
    clock.now += 0.1
    up.drive_high()
    assert drained(events) == []


def test_select_short_press_reports_on_release(buttons, mock_factory, events, clock):
    select = pin(mock_factory, "SELECT")
    select.drive_low()
    assert drained(events) == []
    clock.now += 0.03
    select.drive_high()
    assert drained(events) == [ButtonPressed("SELECT")]


def test_back_held_reports_a_hold_and_no_press(buttons, mock_factory, events, clock):
    back = pin(mock_factory, "BACK")
    back.drive_low()
    assert events.get(timeout=30) == ButtonHeld("BACK")     # gpiozero's hold thread, real time
    clock.now += 1
    back.drive_high()
    assert drained(events) == []


def test_bounces_are_dropped(buttons, mock_factory, events, clock):
    up, select = pin(mock_factory, "UP"), pin(mock_factory, "SELECT")
    for level in (0, 1, 0, 1, 0):               # a bouncing press, all within 4 ms
        up.drive_low() if level == 0 else up.drive_high()
        clock.now += 0.001
    clock.now += 0.1
    up.drive_high()
    select.drive_low()
    clock.now += 0.1
    select.drive_high()
    clock.now += 0.005
    select.drive_low()                          # a release bounce
    select.drive_high()
    assert drained(events) == [ButtonPressed("UP"), ButtonPressed("SELECT")]


def test_buttons_wired_to_3v3(mock_factory, events, clock):
    buttons = Buttons(events.put, pull_up=False, clock=clock)
    down = pin(mock_factory, "DOWN")
    down.drive_high()
    clock.now += 0.1
    down.drive_low()
    buttons.close()
    assert drained(events) == [ButtonPressed("DOWN")]


def test_a_button_on_a_bus_pin_is_refused_before_any_pin_is_used(mock_factory, events):
    claims = bus_claims({"SPI0": "the RC522"})
    with pytest.raises(PinConflict, match="GPIO 8 is SPI0 CE0, used by the RC522"):
        Buttons(events.put, {**DEFAULT_PINS, "SELECT": 8}, claims=claims)
    Buttons(events.put).close()                 # nothing was reserved by the refused attempt


def test_all_four_buttons_are_required(mock_factory, events):
    with pytest.raises(ValueError, match="exactly"):
        Buttons(events.put, {"UP": 5})
