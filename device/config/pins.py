"""The GPIOs a configuration uses, checked with hardware.pins before anything is opened.

The buses in use own their pins (hardware.pins.BUS_PINS: SPI0 8-11 and 7, I2C1
2/3, the UART on /dev/serial0 14/15). Every other line (reset, IRQ, DC, the
buttons, the buzzer and LED) is a single pin named by its config key, so a
clash message names the key to change. Two SPI parts may share a bus, never
its chip select.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.text import Msg, msg
from hardware.pins import Claim, Clash, bus_claims, clashes

from .problems import Problem

if TYPE_CHECKING:
    from .schema import Config

HEADER_UARTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
_SPI_READERS = ("rc522", "mfrc522")


def buses(config: Config) -> dict[str, Msg]:
    """The buses the configured parts use, each with who uses it (for hardware.pins.bus_claims)."""
    users: dict[str, list[Msg]] = {}
    reader, display = config.reader, config.display
    if reader.kind in _SPI_READERS:
        users.setdefault(f"SPI{reader.spi_bus}", []).append(_user("reader", "reader.spi_bus"))
    elif reader.kind == "pn532" and reader.serial_port in HEADER_UARTS:
        users.setdefault("UART0", []).append(_user("reader", "reader.serial_port"))
    if display.kind != "sim" and display.bus == "spi":
        users.setdefault(f"SPI{display.spi_bus}", []).append(_user("display", "display.spi_bus"))
    elif display.kind != "sim" and display.i2c_port == 1:
        users.setdefault("I2C1", []).append(_user("display", "display.i2c_port"))
    return {bus: who[0] if len(who) == 1 else msg("cli.config.pin.users", first=who[0],
                                                  second=who[1])
            for bus, who in users.items()}


def _user(part: str, key: str) -> Msg:
    return msg(f"cli.config.pin.{part}", key=key)


def single_pins(config: Config) -> dict[str, int]:
    """Every GPIO outside the buses, by config key: reader, display, buttons, then feedback."""
    reader, display, buttons, feedback = config.reader, config.display, config.buttons, config.feedback
    pins: dict[str, int | None] = {}
    if reader.kind in _SPI_READERS:
        pins |= {"reader.reset_pin": reader.reset_pin, "reader.irq_pin": reader.irq_pin}
    if display.kind != "sim" and display.bus == "spi":
        pins |= {"display.dc_pin": display.dc_pin, "display.reset_pin": display.reset_pin}
    pins |= {f"buttons.{name}": getattr(buttons, name) for name in ("up", "down", "select", "back")}
    pins |= {f"feedback.{key}": getattr(feedback, key)
             for key in ("buzzer_pin", "led_red", "led_green", "led_blue")}
    return {key: pin for key, pin in pins.items() if pin is not None}


def pin_conflicts(config: Config) -> list[Problem]:
    """One problem per GPIO used twice or owned by a bus, naming the key to change."""
    problems = [_problem(clash) for clash in clashes(single_pins(config), bus_claims(buses(config)))]
    reader, display = config.reader, config.display
    if (reader.kind in _SPI_READERS and display.kind != "sim" and display.bus == "spi"
            and (reader.spi_bus, reader.spi_device) == (display.spi_bus, display.spi_device)):
        problems.append(Problem("display.spi_device", msg(
            "cli.config.pin.same_select", bus=display.spi_bus, device=display.spi_device),
            names=("reader.spi_device",)))
    return problems


def _problem(clash: Clash) -> Problem:
    claim = clash.claim
    if claim is None and clash.first:
        return Problem(clash.name, msg("cli.config.pin.twice", pin=clash.pin, first=clash.first),
                       names=(clash.first,))
    if claim is None:               # off the header: the key's parser refuses it first
        return Problem(clash.name, msg("cli.config.not_pin", value=clash.pin))
    if claim.bus == "HAT":
        return Problem(clash.name, msg("cli.config.pin.hat", pin=clash.pin, signal=claim.signal))
    return Problem(clash.name, msg("cli.config.pin.bus", pin=clash.pin, bus=claim.bus,
                                   signal=claim.signal, user=claim.user),
                   names=tuple(_keys(claim.user)))


def _keys(value: object) -> list[str]:
    """The config keys a bus user's message names (a `_user`, or two)."""
    if isinstance(value, Msg):
        return [name for _, arg in value.args for name in _keys(arg)]
    return [value] if isinstance(value, str) else []


def button_claims(config: Config) -> dict[int, Claim]:
    """What `hardware.buttons.Buttons(claims=...)` must keep the buttons off: the buses in use
    and the other parts' single pins."""
    others = {pin: key for key, pin in single_pins(config).items() if not key.startswith("buttons.")}
    return bus_claims(buses(config), others)
