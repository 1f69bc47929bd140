"""Feedback you can hear and see: buzzer tones and an RGB status LED, with printed twins.

Players look at their cards, not at the screen, so each tap is answered by a
short tone. Both parts run on their own thread: `play` and `show` only queue
and return, so a tune never delays the next frame. The newest request wins:
a tone still sounding is cut short by the next one, and a colour nobody saw
yet is skipped.

    tones = Tones(12, volume=50)                 # a piezo on GPIO 12 (TonalBuzzer)
    tones.play("accepted")
    led = StatusLed(17, 27, 22)                  # RGBLED, common cathode
    led.show("your_turn")

Tests give a MockFactory as `pin_factory`, and a `wait` that returns at once
(or blocks on an Event) in place of the real pause between notes; `play_now`
and `show_now` do one request in the calling thread.
"""
from __future__ import annotations

import logging
import queue
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any, TextIO

log = logging.getLogger(__name__)

Tune = tuple[tuple[float, float], ...]     # (Hz, seconds) per note; 0 Hz is a rest

A3, G5, C6, E6, G6, A6, C7 = 220.0, 784.0, 1046.5, 1318.5, 1568.0, 1760.0, 2093.0

# Piezos are loudest around 2-4 kHz: the frequent tones sit high and short,
# the refusal low and long enough to sound wrong from across the table.
TUNES: dict[str, Tune] = {
    "accepted": ((C7, 0.05),),
    "rejected": ((A3, 0.12), (0, 0.05), (A3, 0.18)),
    "turn": ((E6, 0.06), (A6, 0.09)),
    "round_end": ((C6, 0.08), (E6, 0.08), (G6, 0.16)),
    "game_end": ((G5, 0.1), (C6, 0.1), (E6, 0.1), (G6, 0.2), (E6, 0.1), (G6, 0.4)),
}

# name -> (what the colour is called, red, green, blue)
COLOURS: dict[str, tuple[str, float, float, float]] = {
    "off": ("off", 0, 0, 0),
    "ready": ("green", 0, 0.3, 0),
    "card_seen": ("blue", 0, 0, 1),
    "your_turn": ("amber", 1, 0.4, 0),
    "error": ("red", 1, 0, 0),
    "button_stuck": ("magenta", 1, 0, 1),      # UP or DOWN held so long it no longer repeats
}

_CLOSE = object()


def _known(name: str, table: Mapping[str, Any], what: str) -> str:
    if name not in table:
        raise KeyError(f"no {what} {name!r}: one of {', '.join(table)}")
    return name


class _Newest:
    """A thread that runs `job` on the newest request; `cut` is set when a newer one arrives."""

    def __init__(self, job: Callable[[str], None], name: str) -> None:
        self._job = job
        self._requests: queue.Queue = queue.Queue()
        self.cut = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, request: Any) -> None:
        self._requests.put(request)
        self.cut.set()

    def _run(self) -> None:
        while True:
            request = self._requests.get()
            self.cut.clear()               # before draining: a later request cuts this one
            while not self._requests.empty():
                request = self._requests.get_nowait()
            if request is _CLOSE:
                return
            try:
                self._job(request)
            except Exception:              # a part fault must not end the thread
                log.exception("feedback: %s failed", request)

    def close(self, timeout: float = 2.0) -> None:
        self.put(_CLOSE)
        self._thread.join(timeout)


class Tones:
    """Short tunes (TUNES) on a buzzer; `play(name)` returns at once.

    A passive piezo (the default) goes through gpiozero's TonalBuzzer. Its
    loudness is the PWM duty, 50 % being the loudest, so each note sets the
    frequency and then the duty on the buzzer's PWM device, and silence
    stops the PWM. ``active=True`` drives a plain active buzzer (gpiozero
    Buzzer): on for each note, off for rests, one pitch, no volume.

    `wait(seconds)` pauses between notes and returns True when a newer tone
    cut this one short; by default it waits on that cut.
    """

    def __init__(self, pin: int, *, active: bool = False, volume: int = 50, pin_factory: Any = None,
                 wait: Callable[[float], bool] | None = None, tunes: Mapping[str, Tune] = TUNES):
        if active:
            from gpiozero import Buzzer
            self._buzzer = Buzzer(pin, pin_factory=pin_factory)
        else:
            from gpiozero import TonalBuzzer
            # A3-A7 holds every tune; TonalBuzzer only reports tones within its range.
            self._buzzer = TonalBuzzer(pin, mid_tone="A5", octaves=2, pin_factory=pin_factory)
        self.active = active
        self.volume = volume
        self.tunes = dict(tunes)
        self._worker = _Newest(self.play_now, "tones")
        self._wait = wait or self._worker.cut.wait

    @property
    def volume(self) -> int:
        return self._volume

    @volume.setter
    def volume(self, percent: int) -> None:
        if not 0 <= percent <= 100:
            raise ValueError(f"volume {percent} is not a percentage (0-100)")
        self._volume = percent

    def play(self, name: str) -> None:
        """Queue the tune and return; at volume 0 nothing sounds."""
        _known(name, self.tunes, "tune")
        if self._volume:
            self._worker.put(name)

    def play_now(self, name: str) -> None:
        """Play the whole tune in this thread (the worker's job; tests call it directly)."""
        try:
            for hertz, seconds in self.tunes[name]:
                self._sound(hertz)
                if self._wait(seconds):
                    break
        finally:
            self._sound(0)

    def _sound(self, hertz: float) -> None:
        if self.active:
            self._buzzer.on() if hertz else self._buzzer.off()
        elif not hertz:
            self._buzzer.stop()
        else:
            self._buzzer.pwm_device.frequency = hertz
            self._buzzer.pwm_device.value = self._volume / 200

    def close(self) -> None:
        self._worker.close()
        self._buzzer.close()


class StatusLed:
    """An RGB LED (gpiozero RGBLED, PWM legs) showing COLOURS by name; `show` returns at once."""

    def __init__(self, red: int, green: int, blue: int, *, common_anode: bool = False,
                 pin_factory: Any = None) -> None:
        from gpiozero import RGBLED
        self._led = RGBLED(red, green, blue, active_high=not common_anode, pin_factory=pin_factory)
        self._worker = _Newest(self.show_now, "status-led")

    def show(self, name: str) -> None:
        self._worker.put(_known(name, COLOURS, "colour"))

    def show_now(self, name: str) -> None:
        self._led.color = COLOURS[name][1:]

    def close(self) -> None:
        self._worker.close()
        self._led.close()


class PrintedTones:
    """The buzzer's twin for the simulator: one line per tone, such as "♪ turn"."""

    def __init__(self, out: TextIO | None = None, tunes: Mapping[str, Tune] = TUNES) -> None:
        self._out = out
        self.tunes = dict(tunes)

    def play(self, name: str) -> None:
        _known(name, self.tunes, "tune")
        print(f"\u266a {name.replace('_', ' ')}", file=self._out or sys.stdout, flush=True)

    def close(self) -> None:
        """Nothing to release."""


class PrintedLed:
    """The LED's twin for the simulator: one line per colour shown ("LED amber: your turn")."""

    def __init__(self, out: TextIO | None = None) -> None:
        self._out = out

    def show(self, name: str) -> None:
        colour = COLOURS[_known(name, COLOURS, "colour")][0]
        print(f"LED {colour}: {name.replace('_', ' ')}", file=self._out or sys.stdout, flush=True)

    def close(self) -> None:
        """Nothing to release."""
