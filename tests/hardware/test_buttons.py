"""Buttons on gpiozero's mock pins: press, hold, debounce, held at start, pin check.

Each debounce scenario runs twice: on pins that pass every edge as it comes
(MockPin, as gpiozero without lgpio's debounce) and on pins that debounce as
lgpio does (fakes/gpio.py); the player must get the same presses from both.
Time is virtual: FakeTime is the buttons' clock and timer and the pins'.
"""
from __future__ import annotations

import logging
import queue

import pytest

from hardware.buttons import DEFAULT_PINS, Buttons
from hardware.events import ButtonHeld, ButtonPressed, ButtonStuck
from hardware.pins import PinConflict, bus_claims
from tests.hardware.fakes.gpio import ButtonFactory, FakeTime

MS = 0.001
DEBOUNCE = 20 * MS


@pytest.fixture
def time():
    return FakeTime()


@pytest.fixture(params=[False, True], ids=["raw edges", "lgpio debounce"])
def factory(request, time):
    made = ButtonFactory(time, debounce=request.param)
    yield made
    made.close()
    made.reset()


@pytest.fixture
def events():
    return queue.Queue()


def open_buttons(events, factory, time, **options):
    return Buttons(events.put, hold_s=0.05, debounce_s=DEBOUNCE, pin_factory=factory, clock=time,
                   timer=time.call_after, **options)


@pytest.fixture
def buttons(factory, events, time):
    made = open_buttons(events, factory, time)
    yield made
    made.close()


def pin(factory, name):
    return factory.pin(DEFAULT_PINS[name])


def drained(events):
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


def trace(time, wire, *steps):
    """Drive `wire` through (milliseconds later, level) steps, then let everything settle."""
    for later, level in steps:
        time.advance(later * MS)
        wire.drive_low() if level == 0 else wire.drive_high()
    time.advance(0.2)


def test_up_and_down_report_on_press(buttons, factory, events, time):
    up = pin(factory, "UP")
    trace(time, up, (0, 0))
    assert drained(events) == [ButtonPressed("UP")]
    trace(time, up, (0, 1))
    assert drained(events) == []


def test_select_short_press_reports_on_release(buttons, factory, events, time):
    select = pin(factory, "SELECT")
    trace(time, select, (0, 0))
    assert drained(events) == []
    trace(time, select, (30, 1))
    assert drained(events) == [ButtonPressed("SELECT")]


def test_back_held_reports_a_hold_and_no_press(buttons, factory, events, time):
    back = pin(factory, "BACK")
    trace(time, back, (0, 0))
    assert events.get(timeout=30) == ButtonHeld("BACK")     # gpiozero's hold thread, real time
    trace(time, back, (1000, 1))
    assert drained(events) == []


def test_a_bouncing_press_and_release_are_one_press_each_time(buttons, factory, events, time):
    up = pin(factory, "UP")
    for _ in range(3):
        trace(time, up, (0, 0), (1, 1), (1, 0), (2, 1), (1, 0),        # a bouncing press
              (120, 1), (1, 0), (1, 1), (3, 0), (1, 1))                 # a bouncing release
    assert drained(events) == [ButtonPressed("UP")] * 3


def test_a_release_inside_the_window_is_kept_and_the_next_press_counts(buttons, factory, events,
                                                                          time):
    """Released 12 ms after its press, within the 20 ms window after the counted edge: the
    button must not stay down, or the next press is lost. (Through lgpio's debounce so short
    a touch never reaches the pin: no press at all, and the next still counts.)"""
    up, select = pin(factory, "UP"), pin(factory, "SELECT")
    trace(time, up, (0, 0), (12, 1))
    trace(time, up, (0, 0), (60, 1))
    trace(time, select, (0, 0), (12, 1))
    trace(time, select, (0, 0), (60, 1))
    short = 0 if factory.debounce else 1
    assert drained(events) == [ButtonPressed("UP")] * (short + 1) + \
        [ButtonPressed("SELECT")] * (short + 1)


def test_a_chattering_release_makes_no_phantom_press(buttons, factory, events, time):
    """The contact chatters for 30 ms as it opens: it is low again 22 ms after the counted
    release, past the window, but only for a moment; the level rests high."""
    select, up = pin(factory, "SELECT"), pin(factory, "UP")
    for wire in (select, up):
        trace(time, wire, (0, 0), (100, 1), (5, 0), (3, 1), (10, 0), (2, 1), (2, 0), (5, 1),
              (3, 0), (3, 1))
    assert drained(events) == [ButtonPressed("SELECT"), ButtonPressed("UP")]


def test_a_button_down_at_start_is_said_once_and_counts_from_its_release(factory, events, time,
                                                                         caplog):
    caplog.set_level(logging.WARNING, "hardware.buttons")
    pin(factory, "SELECT").finger = True
    buttons = open_buttons(events, factory, time)
    try:
        assert buttons.held_at_start == ["SELECT"]
        assert [r.message for r in caplog.records] == [
            "buttons: SELECT (GPIO 13) is down at start: stuck, or wired to ground; "
            "it counts once released"]
        select = pin(factory, "SELECT")
        trace(time, select, (0, 1))               # let go: no press for a touch never seen
        assert drained(events) == []
        trace(time, select, (0, 0), (80, 1))
        assert drained(events) == [ButtonPressed("SELECT")]
    finally:
        buttons.close()


def test_buttons_wired_to_3v3(factory, events, time):
    buttons = open_buttons(events, factory, time, pull_up=False)
    down = pin(factory, "DOWN")
    trace(time, down, (0, 1), (100, 0))
    buttons.close()
    assert drained(events) == [ButtonPressed("DOWN")]


def test_a_settling_after_close_reports_nothing(buttons, factory, events, time):
    select = pin(factory, "SELECT")
    trace(time, select, (0, 0), (60, 1))
    select.drive_low()
    time.advance(5 * MS)
    select.drive_high()                         # a release still settling...
    buttons.close()
    time.advance(0.2)                           # ...when its timer comes, after the close
    assert drained(events) == [ButtonPressed("SELECT")]


def test_a_button_on_a_bus_pin_is_refused_before_any_pin_is_used(mock_factory, events):
    claims = bus_claims({"SPI0": "the RC522"})
    with pytest.raises(PinConflict, match="GPIO 8 is SPI0 CE0, used by the RC522"):
        Buttons(events.put, {**DEFAULT_PINS, "SELECT": 8}, claims=claims)
    Buttons(events.put).close()                 # nothing was reserved by the refused attempt


def test_all_four_buttons_are_required(mock_factory, events):
    with pytest.raises(ValueError, match="exactly"):
        Buttons(events.put, {"UP": 5})


def press_times(events, time, seconds: float, step: float = 0.01) -> list[float]:
    """When each press came over `seconds` of virtual time, to the step."""
    found = []
    for _ in range(round(seconds / step)):
        time.advance(step)
        found += [round(time.now, 2) for event in drained(events) if isinstance(event, ButtonPressed)]
    return found


def test_held_up_repeats_faster_and_faster_until_released(buttons, factory, events, time):
    down = pin(factory, "DOWN")
    trace(time, down, (0, 0))                  # pressed at 0 (lgpio: counted at 0.02)
    assert drained(events) == [ButtonPressed("DOWN")]
    times = press_times(events, time, 2.8)     # held to 3.0 s
    gaps = [round(b - a, 2) for a, b in zip(times, times[1:])]
    assert times[0] in (0.5, 0.52) and gaps[:3] == [0.3, 0.23, 0.17]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] == 0.05
    assert len(times) > 20                     # 1..99 held: a number runs on quickly
    trace(time, down, (0, 1))                  # (a repeat may still come before it counts)
    drained(events)
    assert press_times(events, time, 2.0) == []


def test_a_short_press_does_not_repeat_and_a_new_press_starts_over(buttons, factory, events, time):
    up = pin(factory, "UP")
    trace(time, up, (0, 0), (100, 1))          # down 0.1 s: one press
    trace(time, up, (150, 0))                  # again at 0.45, before the old press's repeat
    assert drained(events) == [ButtonPressed("UP")] * 2
    assert press_times(events, time, 0.1) == []   # 0.5: the first press's repeat finds a newer one
    assert press_times(events, time, 0.4) in ([0.95], [0.97])     # 0.5 s after the new press


def test_select_and_back_never_repeat(buttons, factory, events, time):
    select = pin(factory, "SELECT")
    trace(time, select, (0, 0))
    time.advance(3.0)
    assert not [event for event in drained(events) if isinstance(event, ButtonPressed)]


def test_a_repeat_after_close_reports_nothing(factory, events, time):
    made = open_buttons(events, factory, time)
    trace(time, pin(factory, "UP"), (0, 0))
    made.close()
    drained(events)
    time.advance(3.0)
    assert drained(events) == []


def test_up_held_past_30_s_stops_repeating_says_so_once_and_works_again_released(
        buttons, factory, events, time, caplog):
    up = pin(factory, "UP")
    with caplog.at_level(logging.INFO, logger="hardware.buttons"):
        trace(time, up, (0, 0))                # pressed at 0 (lgpio: counted at 0.02)
        time.advance(29.5)
        assert set(drained(events)) == {ButtonPressed("UP")}     # hundreds of repeats
        time.advance(1.0)
        assert drained(events)[-1:] == [ButtonStuck("UP")]
        assert buttons.stuck == ["UP"]
        time.advance(60.0)                     # still down: nothing more
        assert drained(events) == []
        trace(time, up, (0, 1))
        assert drained(events) == [ButtonStuck("UP", stuck=False)] and buttons.stuck == []
        trace(time, up, (0, 0))                # a press like any other, and its repeats
        assert drained(events) == [ButtonPressed("UP")]
        assert len(press_times(events, time, 1.0)) >= 2
        trace(time, up, (0, 1))
    said = [r.getMessage() for r in caplog.records if r.name == "hardware.buttons"]
    assert said == ["buttons: UP held down for 30 s: stuck? It repeats no more until released",
                    "buttons: UP released: it works again"]


def test_a_button_released_before_30_s_is_never_stuck(buttons, factory, events, time):
    down = pin(factory, "DOWN")
    trace(time, down, (0, 0))
    time.advance(29.0)
    trace(time, down, (0, 1))
    trace(time, down, (0, 0))                  # pressed again: a new 30 s
    time.advance(29.0)
    assert ButtonStuck("DOWN") not in drained(events) and buttons.stuck == []
    trace(time, down, (0, 1))
