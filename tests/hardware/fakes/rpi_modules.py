"""Stand-ins for the `spidev` and `RPi.GPIO` modules, to put in sys.modules in tests.

`spidev.SpiDev()` hands out a FakeSpiDev wired to a FakeMFRC522; `RPi.GPIO`
records every call, so a test can check which pins a library touched.
"""
from __future__ import annotations

import types
from typing import Any


class FakeSpiDev:
    def __init__(self, chip: Any):
        self.chip, self.opened, self.max_speed_hz, self.mode = chip, None, 0, None

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def xfer2(self, data: list[int]) -> list[int]:
        return self.chip.xfer2(data)

    def close(self) -> None:
        self.chip.close()


def fake_gpio() -> types.ModuleType:
    gpio = types.ModuleType("RPi.GPIO")
    gpio.BOARD, gpio.BCM, gpio.OUT, gpio.IN, gpio.HIGH, gpio.LOW = 10, 11, 0, 1, 1, 0
    gpio.calls = []
    gpio.mode = None

    def setmode(mode):
        gpio.calls.append(("setmode", mode))
        gpio.mode = mode

    def recorder(name):
        return lambda *args: gpio.calls.append((name, *args))

    gpio.setmode, gpio.getmode = setmode, lambda: gpio.mode
    for name in ("setup", "output", "cleanup", "setwarnings"):
        setattr(gpio, name, recorder(name))
    return gpio


def fake_modules(chip: Any) -> dict[str, types.ModuleType]:
    """'RPi', 'RPi.GPIO' and 'spidev', the last handing out SPI devices wired to `chip`."""
    gpio = fake_gpio()
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio
    spidev = types.ModuleType("spidev")
    spidev.devices = []
    spidev.SpiDev = lambda: spidev.devices.append(FakeSpiDev(chip)) or spidev.devices[-1]
    return {"RPi": rpi, "RPi.GPIO": gpio, "spidev": spidev}
