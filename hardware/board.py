"""Which Raspberry Pi this is, and where its header's UART and GPIO lines are on it.

The PN532 is wired to GPIO 14 (TXD) and 15 (RXD). Up to the Pi 4 that UART is
/dev/serial0 once ``enable_uart=1`` is set. On a Pi 5 (and the 500 and
Compute Module 5) /dev/serial0 is the three-pin debug connector between the
HDMI ports; GPIO 14/15 are the RP1's uart0, /dev/ttyAMA0, there once
``dtparam=uart0=on`` is set.

The header's GPIO lines are /dev/gpiochip0 up to the Pi 4. On a Pi 5 they
are the RP1's, /dev/gpiochip4 on kernels before 6.6.45 and gpiochip0 after
(where gpiochip4 stays as a link); gpiozero 2.0.1 and later find either.

`root` is where the machine's files are, "/" but in tests.
"""
from __future__ import annotations

import re
from pathlib import Path

MODEL_FILE = "proc/device-tree/model"
PI5 = re.compile(r"^Raspberry Pi (5|500|Compute Module 5)\b")
UART_PI5, UART_BEFORE = "/dev/ttyAMA0", "/dev/serial0"
UART_OVERLAY = {True: "dtparam=uart0=on", False: "enable_uart=1"}   # by is_pi5
PI5_GPIOCHIP = "/dev/gpiochip4"
GPIOCHIP = "/dev/gpiochip0"
GPIOZERO_FOR_PI5 = (2, 0, 1)


def model(root: Path = Path("/")) -> str:
    """The board's name as its device tree gives it ("Raspberry Pi 5 Model B Rev 1.0"), or ""
    off a Pi."""
    try:
        return (root / MODEL_FILE).read_bytes().rstrip(b"\0").decode("ascii", "replace").strip()
    except OSError:
        return ""


def is_pi5(model_name: str) -> bool:
    return bool(PI5.match(model_name))


def header_uart(model_name: str) -> str:
    """The serial port on GPIO 14/15 for this model: the PN532's default."""
    return UART_PI5 if is_pi5(model_name) else UART_BEFORE


def default_uart(root: Path = Path("/")) -> str:
    """`header_uart` for the Pi this runs on (/dev/serial0 off a Pi)."""
    return header_uart(model(root))


def gpio_chip(root: Path = Path("/")) -> str:
    """The GPIO chip the header's lines are on, as gpiozero's lgpio factory picks it."""
    return PI5_GPIOCHIP if (root / PI5_GPIOCHIP.lstrip("/")).exists() else GPIOCHIP
