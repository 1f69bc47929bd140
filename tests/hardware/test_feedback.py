"""Buzzer tones and the status LED on gpiozero's MockFactory: the pin sequence of each tone,
the colours on the LED's legs, and the worker threads proven with Events, never with sleeps."""
from __future__ import annotations

import io
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.feedback import TUNES, PrintedLed, PrintedTones, StatusLed, Tones

BUZZER = 12
SILENCE = ("hz", None)


class RecordingPin(MockPWMPin):
    """A PWM pin that logs every frequency and duty set on it, in order."""

    def __init__(self, factory, info):
        self.log: list[tuple[str, object]] = []
        self._logged = threading.Condition()
        super().__init__(factory, info)

    def _set_frequency(self, value):
        self._record("hz", value)
        super()._set_frequency(value)

    def _set_state(self, value):
        self._record("duty", value)
        super()._set_state(value)

    def _record(self, kind, value):
        with self._logged:
            self.log.append((kind, value))
            self._logged.notify_all()

    def wait_for(self, entries: int) -> bool:
        with self._logged:
            return self._logged.wait_for(lambda: len(self.log) >= entries, timeout=5)


@pytest.fixture
def factory():
    factory = MockFactory(pin_class=RecordingPin)
    yield factory
    factory.close()
    factory.reset()


def no_wait(seconds: float) -> bool:
    return False


def buzzer(factory, **kwargs) -> tuple[Tones, RecordingPin]:
    tones = Tones(BUZZER, pin_factory=factory, **kwargs)
    pin = factory.pin(BUZZER)
    pin.log.clear()                         # what gpiozero does when it opens the pin
    return tones, pin


def note(hz: float, duty: float = 0.25) -> list[tuple[str, object]]:
    return [("hz", hz), ("duty", duty)]


EXPECTED = {
    "accepted": note(2093.0) + [SILENCE],
    "rejected": note(220.0) + [SILENCE] + note(220.0) + [SILENCE],
    "turn": note(1318.5) + note(1760.0) + [SILENCE],
    "round_end": note(1046.5) + note(1318.5) + note(1568.0) + [SILENCE],
    "game_end": (note(784.0) + note(1046.5) + note(1318.5) + note(1568.0) + note(1318.5)
                 + note(1568.0) + [SILENCE]),
}


@pytest.mark.parametrize("name", sorted(TUNES))
def test_each_tone_sets_its_notes_on_the_pin_then_falls_silent(factory, name):
    tones, pin = buzzer(factory, wait=no_wait)
    tones.play_now(name)
    assert pin.log == EXPECTED[name]
    assert pin.frequency is None and pin.state == 0
    tones.close()


def test_the_notes_last_as_the_tune_says(factory):
    waits: list[float] = []
    tones, _ = buzzer(factory, wait=lambda s: waits.append(s) or False)
    tones.play_now("rejected")
    assert waits == [0.12, 0.05, 0.18]
    tones.close()


def test_the_tones_are_distinct():
    assert len({tune for tune in TUNES.values()}) == len(TUNES)


@pytest.mark.parametrize("volume, duty", [(100, 0.5), (50, 0.25), (10, 0.05)])
def test_volume_is_the_duty_half_being_loudest(factory, volume, duty):
    tones, pin = buzzer(factory, wait=no_wait, volume=volume)
    tones.play_now("accepted")
    assert pin.log == note(2093.0, duty) + [SILENCE]
    tones.close()


def test_volume_zero_plays_nothing(factory):
    tones, pin = buzzer(factory, wait=no_wait, volume=0)
    tones.play("game_end")
    tones.close()                           # joins the worker: anything queued has run
    assert [hz for kind, hz in pin.log if kind == "hz" and hz] == []


def test_volume_must_be_a_percentage(factory):
    tones, _ = buzzer(factory, wait=no_wait)
    with pytest.raises(ValueError, match="percentage"):
        tones.volume = 101
    tones.close()


def test_an_active_buzzer_is_on_for_notes_and_off_for_rests(factory):
    tones, pin = buzzer(factory, wait=no_wait, active=True)
    tones.play_now("rejected")
    assert [state for kind, state in pin.log] == [True, False, True, False]
    tones.close()


def test_play_returns_while_the_tone_still_sounds(factory):
    started, release = threading.Event(), threading.Event()

    def held_wait(seconds: float) -> bool:
        started.set()
        release.wait(5)
        return False

    tones, pin = buzzer(factory, wait=held_wait)
    tones.play("game_end")                  # returns at once: the worker plays it
    assert started.wait(5)
    assert pin.frequency == 784.0 and not release.is_set()
    release.set()
    tones.close()                           # joins the worker, then closes the pin
    assert pin.log[:len(EXPECTED["game_end"])] == EXPECTED["game_end"]


def test_a_newer_tone_cuts_the_one_sounding(factory):
    tones, pin = buzzer(factory, tunes={"long": ((440.0, 60.0),), "short": ((880.0, 0.0),)})
    tones.play("long")
    assert pin.wait_for(2)                  # the long note sounds
    tones.play("short")                     # the long note's wait is cut at once
    assert pin.wait_for(6)
    assert pin.log[:6] == note(440.0) + [SILENCE] + note(880.0) + [SILENCE]
    tones.close()


def test_an_unknown_tone_is_refused(factory):
    tones, _ = buzzer(factory, wait=no_wait)
    with pytest.raises(KeyError, match="accepted"):
        tones.play("fanfare")
    tones.close()


def legs(factory) -> tuple[float, float, float]:
    return tuple(float(factory.pin(n).state) for n in (17, 27, 22))


@pytest.mark.parametrize("name, colour", [("ready", (0, 0.3, 0)), ("card_seen", (0, 0, 1)),
                                          ("error", (1, 0, 0)), ("your_turn", (1, 0.4, 0)),
                                          ("off", (0, 0, 0))])
def test_status_led_colours(factory, name, colour):
    led = StatusLed(17, 27, 22, pin_factory=factory)
    led.show_now(name)
    assert legs(factory) == pytest.approx(colour)
    led.close()


def test_a_common_anode_led_is_driven_inverted(factory):
    led = StatusLed(17, 27, 22, common_anode=True, pin_factory=factory)
    led.show_now("your_turn")
    assert legs(factory) == pytest.approx((0, 0.6, 1))
    led.close()


def test_show_returns_and_the_colour_follows_on_the_led_thread(factory):
    led = StatusLed(17, 27, 22, pin_factory=factory)
    blue = factory.pin(22)                  # the last leg RGBLED sets
    blue.log.clear()
    led.show("error")
    assert blue.wait_for(1)
    assert legs(factory) == (1, 0, 0)
    led.close()


def test_printed_twins_say_the_tone_and_the_colour():
    out = io.StringIO()
    PrintedTones(out).play("round_end")
    PrintedLed(out).show("your_turn")
    assert out.getvalue() == "\u266a round end\nLED amber: your turn\n"
    with pytest.raises(KeyError):
        PrintedTones(out).play("fanfare")
