"""The panel's side of the bench: what each display update puts on the I2C bus, and how long
that takes.

`CountingBus` stands where luma's i2c interface stands under the real luma.oled driver,
so our page-diff updates (`hardware.display.OledDisplay`) and luma's own full-frame
`display()` are counted the same way: one bus transaction per `command()` or `data()`
call, as luma's managed i2c sends them (a command is one block write of at most 32
bytes; data is one `i2c_rdwr` message, up to 4096 bytes, so a whole 1 KiB frame is one).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

SPEEDS_HZ = {"100k": 100_000, "400k": 400_000}
POLL_STEPS = 50          # moments in a poll period a card may touch the reader, evenly spread


def i2c_seconds(payloads: list[int], hz: int) -> float:
    """Wire time of these transactions (payload bytes each) at `hz`.

    Model: each byte is 9 clocks (8 bits and the ACK); a transaction adds the address
    byte and luma's control byte (0x00 command, 0x40 data), plus about two clocks for
    START and STOP. Clock stretching and the kernel's per-transfer cost are left out, so
    this is the least the bus can take.
    """
    clocks = sum(9 * (payload + 2) + 2 for payload in payloads)
    return clocks / hz


def card_to_frame_seconds(software_s: list[float], updates: list[list[int]], hz: int,
                          poll_hz: int, steps: int = POLL_STEPS) -> list[float]:
    """What a player waits, from a card touching the reader to the last byte of the new frame
    on the display's bus: for each tap (its software time and its update's transactions) and
    each of `steps` moments the card may touch within a poll period, the wait for the next
    poll, then the software (engine, journal with fsync, render, diff), then the update's
    bytes at `hz`. The poll's own exchange with the reader chip is left out."""
    period = 1 / poll_hz
    waits = [period * (step + 0.5) / steps for step in range(steps)]
    return [wait + software + i2c_seconds(update, hz)
            for software, update in zip(software_s, updates) for wait in waits]


@dataclass
class CountingBus:
    """luma's serial interface contract (command, data, cleanup), counting every transaction."""

    payloads: list[int] = field(default_factory=list)

    def command(self, *cmd: int) -> None:
        self.payloads.append(len(cmd))

    def data(self, data) -> None:
        self.payloads.append(len(data))

    def cleanup(self) -> None:
        """Nothing to release."""

    def take(self) -> list[int]:
        """The transactions since the last take."""
        taken, self.payloads = self.payloads, []
        return taken


def oled_on_bus():
    """Our display driver on a counting bus: the update path the appliance uses."""
    from hardware.display import OledDisplay

    bus = CountingBus()
    # a clock that stands still: no "are you there?" probe is counted as an update
    return OledDisplay(_ssd1306_on(bus), clock=lambda: 0.0), bus


def full_frame() -> list[int]:
    """The transactions of one update as luma.oled's own ssd1306 driver sends it (the
    whole frame every time, whatever changed)."""
    from PIL import Image

    bus = CountingBus()
    device = _ssd1306_on(bus)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        device.display(Image.new("1", device.size))
    return bus.take()


def _ssd1306_on(bus: CountingBus):
    """luma's ssd1306 driver on `bus`, its initialisation not counted."""
    from luma.oled.device import ssd1306

    with warnings.catch_warnings():            # luma reads images with getdata(), deprecated
        warnings.simplefilter("ignore", DeprecationWarning)
        device = ssd1306(bus, width=128, height=64)
    device.persist = True                      # its exit hook would clear a panel that is not there
    bus.take()
    return device
