"""The `mfrc522` PyPI package (0.0.7) behind the TagReader interface: optional, never the default.

For readers already wired for it. Its limits show here: it runs
only cascade level 1, so a 7-byte UID would come back as 88 + three bytes; such
cards are refused (None, with one warning) rather than returned truncated. It
sends REQA and never halts a card, so a card held on the reader answers every
other poll; presence hysteresis hides that. It has no anticollision loop: two
cards in the field collide and neither is read, which `poll_all()` reports as
cards it cannot tell apart ("one card at a time"). It needs RPi.GPIO, which refuses
anything but an older Pi, so everything is imported on first use, with a clear
message when the package is missing or refuses the machine.
"""
from __future__ import annotations

import logging
from typing import Any

from hardware import iso14443
from hardware.errors import ReaderError
from hardware.iso14443 import FieldScan

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'tabletop-companion[mfrc522]'"
ErrorReg, CollErr = 0x06, 0x08          # MFRC522 datasheet §9.3.1.7


def load_mfrc522() -> tuple[Any, Any]:
    """The package's MFRC522 class and the RPi.GPIO module it drives."""
    try:
        # mfrc522 first: a missing package is the likelier news, and RPi.GPIO raises
        # RuntimeError off a Pi, which would hide it.
        # isort: off
        from mfrc522 import MFRC522
        import RPi.GPIO as GPIO
        # isort: on
    except ModuleNotFoundError as exc:
        raise ReaderError(f"the mfrc522 backend needs {exc.name}, which is not installed: "
                          f"{INSTALL_HINT}") from None
    except RuntimeError as exc:
        raise ReaderError(f"the mfrc522 package cannot run on this machine (RPi.GPIO: {exc}); "
                          "the built-in rc522 driver needs no RPi.GPIO") from None
    return MFRC522, GPIO


class Mfrc522Reader:
    """A TagReader over an ``mfrc522.MFRC522`` chip object."""

    def __init__(self, chip: Any, *, gpio: Any, reset_pin: int):
        self._chip, self._gpio, self._reset_pin = chip, gpio, reset_pin
        self._warned = False

    def poll(self) -> str | None:
        uids = self.poll_all().uids
        return uids[0] if uids else None

    def poll_all(self) -> FieldScan:
        chip = self._chip
        status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
        if status != chip.MI_OK:
            return FieldScan()
        status, answer = chip.MFRC522_Anticoll()     # UID part + BCC; the package checks the BCC
        if status != chip.MI_OK:
            # The package hides why; the chip's ErrorReg still says if cards collided.
            return FieldScan((), unresolved=bool(chip.Read_MFRC522(ErrorReg) & CollErr))
        return FieldScan.of(self._uid(answer))

    def _uid(self, answer: list[int]) -> str | None:
        if answer[0] == iso14443.CASCADE_TAG:
            if not self._warned:
                log.warning("mfrc522 backend: a 7- or 10-byte UID card cannot be read by the "
                            "mfrc522 package; use the rc522 driver")
                self._warned = True
            return None
        return iso14443.uid_hex(bytes(answer[:4]))

    def close(self) -> None:
        # Not Close_MFRC522(): its GPIO.cleanup() resets every pin of the process.
        self._chip.AntennaOff()
        self._chip.spi.close()
        self._gpio.cleanup(self._reset_pin)


def open_mfrc522(bus: int = 0, device: int = 0, *, reset_pin: int = 25) -> Mfrc522Reader:
    """The package's reader on /dev/spidev<bus>.<device>, reset on a BCM pin."""
    MFRC522, GPIO = load_mfrc522()
    mode = GPIO.getmode()
    if mode not in (None, GPIO.BCM):
        raise ReaderError("RPi.GPIO is already in BOARD numbering; the mfrc522 backend "
                          "takes BCM pin numbers like the rest of the device")
    # BCM and an explicit reset pin: the package's BCM default is GPIO 15, the UART's RXD.
    chip = MFRC522(bus=bus, device=device, pin_mode=GPIO.BCM, pin_rst=reset_pin)
    return Mfrc522Reader(chip, gpio=GPIO, reset_pin=reset_pin)
