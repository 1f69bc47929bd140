"""The Raspberry Pi pins that buses own, and a start-up check against them.

Once a bus is enabled the kernel owns its pins: ``dtparam=spi=on`` takes both
chip selects, the UART takes TXD and RXD. A button there would read bus
traffic as presses or break the bus, so start-up refuses it and says why.
BCM numbering throughout, as gpiozero uses.
"""
from __future__ import annotations

from typing import Mapping

BUS_PINS = {
    "SPI0": {8: "CE0", 7: "CE1", 9: "MISO", 10: "MOSI", 11: "SCLK"},
    "SPI1": {18: "CE0", 17: "CE1", 16: "CE2", 19: "MISO", 20: "MOSI", 21: "SCLK"},
    "I2C1": {2: "SDA", 3: "SCL"},
    "UART0": {14: "TXD", 15: "RXD"},
}
# Always reserved: a HAT's ID EEPROM lives on these two.
HAT_EEPROM = {0: "ID_SD, reserved for a HAT's ID EEPROM", 1: "ID_SC, reserved for a HAT's ID EEPROM"}
HEADER_GPIOS = range(28)


class PinConflict(ValueError):
    """A configured pin is owned by something else; the message names every clash."""


def bus_claims(buses: Mapping[str, str], extra: Mapping[int, str] | None = None) -> dict[int, str]:
    """What owns each pin: buses in use by part (``{"SPI0": "the RC522"}``) plus
    single pins (``{25: "the RC522 reset line"}``)."""
    claims = dict(HAT_EEPROM)
    for bus, user in buses.items():
        if bus not in BUS_PINS:
            raise ValueError(f"unknown bus {bus!r}: one of {', '.join(BUS_PINS)}")
        claims.update({pin: f"{bus} {signal}, used by {user}" for pin, signal in BUS_PINS[bus].items()})
    claims.update(extra or {})
    return claims


def pin_conflicts(pins: Mapping[str, int], claims: Mapping[int, str]) -> list[str]:
    """One message per misplaced pin; empty when all is well."""
    problems, first_user = [], {}
    for name, pin in pins.items():
        if pin not in HEADER_GPIOS:
            problems.append(f"{name}: GPIO {pin} is not on the 40-pin header (GPIO 0-27)")
        elif pin in claims:
            problems.append(f"{name}: GPIO {pin} is {claims[pin]}")
        elif pin in first_user:
            problems.append(f"{name}: GPIO {pin} is also {first_user[pin]}")
        else:
            first_user[pin] = name
    return problems


def check_pins(pins: Mapping[str, int], claims: Mapping[int, str]) -> None:
    problems = pin_conflicts(pins, claims)
    if problems:
        raise PinConflict("; ".join(problems))
