"""`tabletop doctor` on the board: which Pi, the GPIO chip, the PN532's UART, the buttons.

A Pi 5 moved the header's UART and GPIO lines (`hardware.board`): a config or an
image made on an older Pi reads the debug connector instead of the PN532, and an
older gpiozero looks for the wrong GPIO chip. Each line names what was found and
what to change. The buttons are opened to see that none is down before anyone
touched it (stuck, or wired to ground).
"""
from __future__ import annotations

import importlib.metadata
from pathlib import Path

from device.config import Config
from hardware import board

from . import doctor_checks as checks
from .doctor_checks import BOOT_CONFIG, Check, ok


def board_checks(config: Config, sim: bool) -> list[Check]:
    if sim:
        return []
    name = board.model(checks.ROOT)
    found = [gpio_check(name, board.gpio_chip(checks.ROOT))]
    if config.reader.kind == "pn532":
        found.append(uart_check(config.reader.serial_port, name))
    return found


def gpio_check(name: str, chip: str) -> Check:
    if not name:
        return Check("WARN", "board", f"not a Raspberry Pi (no /{board.MODEL_FILE}); GPIO "
                     f"lines looked for on {chip}", "run doctor on the Pi the table runs on")
    if board.is_pi5(name) and _gpiozero() < board.GPIOZERO_FOR_PI5:
        return Check("FAIL", "board", f"{name}: GPIO lines on {chip}, which this gpiozero does "
                     "not find",
                     "pip install 'gpiozero>=2.0.1' (sudo systemd/install.sh does it)")
    return ok("board", f"{name}: GPIO lines on {chip}, GPIO 14/15's UART is "
                       f"{board.header_uart(name)}")


def uart_check(port: str, name: str) -> Check:
    header = board.header_uart(name)
    pi5 = board.is_pi5(name)
    if pi5 and _same(port, board.UART_BEFORE):
        return Check("FAIL", "uart", f"{port} is the Pi 5's debug connector, not GPIO 14/15",
                     f'serial_port = "{header}" in [reader] (or remove the key), and '
                     f"{board.UART_OVERLAY[True]} in {BOOT_CONFIG}, then reboot")
    where = f"GPIO 14/15 on this {name or 'machine'}"
    if not _same(port, header) and not (not pi5 and _same(port, board.UART_PI5)):
        return ok("uart", f"PN532 on {port}, not the header's UART ({header}, {where})")
    if not Path(port).exists():
        return Check("FAIL", "uart", f"{port} ({where}) is missing",
                     f"{board.UART_OVERLAY[pi5]} in {BOOT_CONFIG} (sudo systemd/install.sh does it), "
                     "then reboot")
    return ok("uart", f"PN532 on {port} ({where})")


def buttons_check(config: Config, sim: bool) -> Check:
    if sim:
        return ok("buttons", "simulated buttons")
    from device.parts import button_pins, open_buttons_now
    pins = button_pins(config)
    try:
        buttons = open_buttons_now(config, lambda event: None)
    except Exception as exc:           # every GPIO error is a finding here
        return Check("FAIL", "buttons", str(exc), checks.ENABLE["gpio"])
    try:
        down = list(buttons.held_at_start)
    finally:
        buttons.close()
    if down:
        named = ", ".join(f"{button} (GPIO {pins[button]})" for button in down)
        return Check("FAIL", "buttons", f"{named} down before anyone pressed: stuck, or wired "
                     "to ground", "let go of it; if it stays down, the button or its wire closes "
                     "to ground all the time: check them")
    return ok("buttons", "all up: " + ", ".join(f"{button} GPIO {pin}" for button, pin in pins.items()))


def _same(port: str, other: str) -> bool:
    """Two names of one port (serial0 is a link to the UART it stands for)."""
    return port == other or Path(port).resolve() == Path(other).resolve()


def _gpiozero() -> tuple[int, ...]:
    try:
        version = importlib.metadata.version("gpiozero")
    except importlib.metadata.PackageNotFoundError:
        return (0,)
    return tuple(int(part) for part in version.split(".")[:3] if part.isdigit())
