"""Which GPIOs a configuration uses, and the ones it uses twice.

The buses own fixed pins (I2C1: GPIO 2/3; SPI0: 9/10/11 with CE0 8 and CE1 7;
SPI1: 19/20/21 with CE0-2 18/17/16; the UART on /dev/serial0: 14/15). A button,
reset line or LED on one of those, or two parts on one pin, stops the device at
start with a message naming the key to change. Two SPI parts may share a bus's
data lines, never its chip select.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import Config

SPI_DATA = {0: {9: "MISO", 10: "MOSI", 11: "SCLK"}, 1: {19: "MISO", 20: "MOSI", 21: "SCLK"}}
SPI_CE = {0: (8, 7), 1: (18, 17, 16)}
I2C = {0: {0: "SDA", 1: "SCL"}, 1: {2: "SDA", 3: "SCL"}}
HEADER_UARTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
UART = {14: "TXD", 15: "RXD"}


@dataclass(frozen=True)
class Claim:
    """One GPIO in use: the config key that puts it there, what it is, and its sharing group."""

    key: str
    pin: int
    what: str
    shared: str | None = None     # claims with the same non-None group may share the pin


def claims(config: Config) -> list[Claim]:
    """Every GPIO the configuration uses, reader first, then display, buttons and feedback."""
    return [*_reader(config), *_display(config), *_buttons(config), *_feedback(config)]


def pin_conflicts(config: Config) -> list[str]:
    """One message per GPIO used twice, naming the later key: the one a user most likely edits."""
    problems: list[str] = []
    seen: dict[int, Claim] = {}
    for claim in claims(config):
        first = seen.get(claim.pin)
        if first is None:
            seen[claim.pin] = claim
        elif not (claim.shared and claim.shared == first.shared):
            problems.append(f"{claim.key}: GPIO {claim.pin} is already {first.what} ({first.key})")
    return problems


def _spi(section: str, bus: int, device: int, owner: str) -> list[Claim]:
    found = [Claim(f"{section}.spi_bus", pin, f"SPI{bus} {name}", f"spi{bus}")
             for pin, name in SPI_DATA[bus].items()]
    selects = SPI_CE[bus]
    if device < len(selects):
        found.append(Claim(f"{section}.spi_device", selects[device], f"SPI{bus} CE{device} of the {owner}"))
    return found


def _reader(config: Config) -> list[Claim]:
    reader = config.reader
    if reader.kind in ("rc522", "mfrc522"):
        found = _spi("reader", reader.spi_bus, reader.spi_device, "reader")
        for key in ("reset_pin", "irq_pin"):
            pin = getattr(reader, key)
            if pin is not None:
                found.append(Claim(f"reader.{key}", pin, f"the reader's {key[:-4].upper()}"))
        return found
    if reader.kind == "pn532" and reader.serial_port in HEADER_UARTS:
        return [Claim("reader.serial_port", pin, f"UART {name}") for pin, name in UART.items()]
    return []


def _display(config: Config) -> list[Claim]:
    display = config.display
    if display.kind == "sim":
        return []
    if display.bus == "i2c":
        return [Claim("display.i2c_port", pin, f"I2C{display.i2c_port} {name}")
                for pin, name in I2C.get(display.i2c_port, {}).items()]
    found = _spi("display", display.spi_bus, display.spi_device, "display")
    found.append(Claim("display.dc_pin", display.dc_pin, "the display's DC"))
    if display.reset_pin is not None:
        found.append(Claim("display.reset_pin", display.reset_pin, "the display's RES"))
    return found


def _buttons(config: Config) -> list[Claim]:
    return [Claim(f"buttons.{name}", getattr(config.buttons, name), f"the {name.upper()} button")
            for name in ("up", "down", "select", "back")]


def _feedback(config: Config) -> list[Claim]:
    feedback = config.feedback
    parts = (("buzzer_pin", "the buzzer"), ("led_red", "the red LED"),
             ("led_green", "the green LED"), ("led_blue", "the blue LED"))
    return [Claim(f"feedback.{key}", getattr(feedback, key), what)
            for key, what in parts if getattr(feedback, key) is not None]
