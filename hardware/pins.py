"""The Raspberry Pi pins that buses own, and a start-up check against them.

Once a bus is enabled the kernel owns its pins: ``dtparam=spi=on`` takes both
chip selects, the UART takes TXD and RXD. A button there would read bus
traffic as presses or break the bus, so start-up refuses it and says why.
BCM numbering throughout, as gpiozero uses.

A clash is found as data (`Clash`) so that whoever shows it can word it in the
reader's language; `check_pins` words it in English, for logs and errors.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

BUS_PINS = {
    "SPI0": {8: "CE0", 7: "CE1", 9: "MISO", 10: "MOSI", 11: "SCLK"},
    "SPI1": {18: "CE0", 17: "CE1", 16: "CE2", 19: "MISO", 20: "MOSI", 21: "SCLK"},
    "I2C1": {2: "SDA", 3: "SCL"},
    "UART0": {14: "TXD", 15: "RXD"},
}
HEADER_GPIOS = range(28)


@dataclass(frozen=True)
class Claim:
    """What owns a pin: a bus signal and who uses that bus, or (no bus) a part's own line.
    `user` is whatever names the user; it is shown with str()."""

    user: object
    bus: str = ""
    signal: str = ""

    def __str__(self) -> str:
        if self.bus == "HAT":
            return f"{self.signal}, reserved for a HAT's ID EEPROM"
        return f"{self.bus} {self.signal}, used by {self.user}" if self.bus else str(self.user)


# Always reserved: a HAT's ID EEPROM lives on these two.
HAT_EEPROM = {0: Claim("a HAT's ID EEPROM", "HAT", "ID_SD"),
              1: Claim("a HAT's ID EEPROM", "HAT", "ID_SC")}


@dataclass(frozen=True)
class Clash:
    """One misplaced pin: `name` wants GPIO `pin`, which is off the header (no claim, no
    first), owned (`claim`), or already `first`'s."""

    name: str
    pin: int
    claim: Claim | None = None
    first: str = ""

    def __str__(self) -> str:
        if self.claim is not None:
            return f"{self.name}: GPIO {self.pin} is {self.claim}"
        if self.first:
            return f"{self.name}: GPIO {self.pin} is also {self.first}"
        return f"{self.name}: GPIO {self.pin} is not on the 40-pin header (GPIO 0-27)"


class PinConflict(ValueError):
    """A configured pin is owned by something else; the message names every clash."""


def bus_claims(buses: Mapping[str, object],
               extra: Mapping[int, object] | None = None) -> dict[int, Claim]:
    """What owns each pin: buses in use by part (``{"SPI0": "the RC522"}``) plus
    single pins (``{25: "the RC522 reset line"}``)."""
    claims = dict(HAT_EEPROM)
    for bus, user in buses.items():
        if bus not in BUS_PINS:
            raise ValueError(f"unknown bus {bus!r}: one of {', '.join(BUS_PINS)}")
        claims.update({pin: Claim(user, bus, signal) for pin, signal in BUS_PINS[bus].items()})
    claims.update({pin: Claim(user) for pin, user in (extra or {}).items()})
    return claims


def clashes(pins: Mapping[str, int], claims: Mapping[int, Claim]) -> list[Clash]:
    """Every misplaced pin, in the order of `pins`; empty when all is well."""
    found: list[Clash] = []
    first_user: dict[int, str] = {}
    for name, pin in pins.items():
        if pin not in HEADER_GPIOS:
            found.append(Clash(name, pin))
        elif pin in claims:
            found.append(Clash(name, pin, claim=claims[pin]))
        elif pin in first_user:
            found.append(Clash(name, pin, first=first_user[pin]))
        else:
            first_user[pin] = name
    return found


def check_pins(pins: Mapping[str, int], claims: Mapping[int, Claim]) -> None:
    """PinConflict naming every misplaced pin, in English, unless all is well."""
    found = clashes(pins, claims)
    if found:
        raise PinConflict("; ".join(map(str, found)))
