"""The slice of the RPi.GPIO API that luma's SPI interface drives, on gpiozero.

luma toggles DC (data/command) and RST through an RPi.GPIO-like object and
imports RPi.GPIO when given none; RPi.GPIO fails off a Pi and on a Pi 5,
gpiozero (lgpio) does not. Only outputs are needed.
"""
from __future__ import annotations

from typing import Any


class GpiozeroGPIO:
    BCM, OUT, LOW, HIGH = 11, 0, 0, 1

    def __init__(self, pin_factory: Any = None):
        self._pin_factory = pin_factory
        self._outputs: dict[int, Any] = {}

    def setup(self, pin: int, direction: int) -> None:
        from gpiozero import DigitalOutputDevice
        if direction != self.OUT:
            raise ValueError("only outputs (DC, RST) are supported")
        self._outputs[pin] = DigitalOutputDevice(pin, pin_factory=self._pin_factory)

    def output(self, pin: int, value: int) -> None:
        self._outputs[pin].value = bool(value)

    def cleanup(self) -> None:
        for device in self._outputs.values():
            device.close()
        self._outputs.clear()
