"""The device configuration's keys: one frozen dataclass a section, each key with its parser.

Each setting is a field of a frozen dataclass whose metadata carries its
one-line description and its parser, so validation, error messages and the
commented example (`tabletop config --example`) all come from one table.
An error always names the key (`display.i2c_address: ...`); an unknown key
also suggests the nearest known one. Pins are BCM GPIO numbers.

Default wiring (no two parts share a pin):
  RC522 reader   SPI0 CE0: GPIO 8 (CE0), 9 (MISO), 10 (MOSI), 11 (SCLK); RST GPIO 25
  PN532 reader   UART: GPIO 14 (TX), 15 (RX): /dev/serial0, on a Pi 5 /dev/ttyAMA0
  OLED           I2C1: GPIO 2 (SDA), 3 (SCL) at 0x3C; on SPI: SPI0 CE1 (GPIO 7), DC GPIO 24
  buttons        UP 5, DOWN 6, SELECT 13, BACK 19, to ground (internal pull-ups)
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.catalog import LANGUAGES
from engine.core.text import msg
from hardware.board import default_uart

from .problems import Refused, show_value

# ---------------------------------------------------------------------------------------------
# Value parsers: each takes the raw TOML value and returns the typed one, or raises Refused
# with a catalog message that the caller files under the key's name. `what` names a catalog
# text too (cli.config.what.*), so a range reads "is not a contrast (0-255)" in each language.

def _int(low: int, high: int, what: str) -> Callable[[object], int]:
    def parse(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refused("cli.config.not_whole", value=show_value(value))
        if not low <= value <= high:
            raise Refused("cli.config.out_of_range", value=show_value(value),
                          what=msg(f"cli.config.what.{what}"), low=low, high=high)
        return value
    return parse


def _one_of(*values: int, reason: str = "cli.config.not_one_of") -> Callable[[object], int]:
    def parse(value: object) -> int:
        if isinstance(value, bool) or value not in values:
            raise Refused(reason, value=show_value(value), choices=", ".join(map(str, values)))
        return int(value)
    return parse


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused("cli.config.not_seconds", value=show_value(value))
    if not 0 <= value <= 86400:
        raise Refused("cli.config.seconds_range", value=show_value(value), low=0, high=86400)
    return float(value)


def _hold(value: object) -> float:
    seconds = _seconds(value)
    if not 0.2 <= seconds <= 5:
        raise Refused("cli.config.seconds_range", value=show_value(value), low=0.2, high=5)
    return seconds


def _choice(*choices: str) -> Callable[[object], str]:
    def parse(value: object) -> str:
        if value not in choices:
            raise Refused("cli.config.not_one_of", value=show_value(value),
                          choices=", ".join(choices))
        return str(value)
    return parse


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise Refused("cli.config.not_bool", value=show_value(value))
    return value


def _pin(optional: bool = False) -> Callable[[object], int | None]:
    """A BCM GPIO number of the 40-pin header; "none" for an optional line left unconnected."""
    def parse(value: object) -> int | None:
        if optional and isinstance(value, str) and value.lower() == "none":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
            raise Refused("cli.config.not_pin_or_none" if optional else "cli.config.not_pin",
                          value=show_value(value))
        return value
    return parse


def _address(value: object) -> int:
    """An I2C address, as a TOML integer (0x3C) or a string ("0x3C")."""
    if isinstance(value, str):
        try:
            value = int(value, 0)
        except ValueError:
            raise Refused("cli.config.not_address", value=show_value(value)) from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused("cli.config.not_address", value=show_value(value))
    if not 0x03 <= value <= 0x77:
        raise Refused("cli.config.address_range", value=show_value(value))
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Refused("cli.config.not_text", value=show_value(value))
    return value.strip()


def _path(value: object) -> Path:
    text = _text(value)
    if "\0" in text:
        raise Refused("cli.config.path_nul", value=show_value(text))
    try:
        return Path(text).expanduser()
    except RuntimeError:                     # ~someone: no such user, or no home
        raise Refused("cli.config.path_no_home", value=show_value(text)) from None


def _table(value: object) -> str:
    """A table's name: one MQTT topic level (no / + #), short enough for the dashboard."""
    name = _text(value)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", name) or name == "shared":
        raise Refused("cli.config.not_table_name", value=show_value(name))
    return name


def _public_key(value: object) -> str:
    """An Ed25519 public key as 64 hex digits (`tabletop fleet keys` writes them so)."""
    if not (isinstance(value, str) and re.fullmatch(r"[0-9a-fA-F]{64}", value.strip())):
        raise Refused("cli.config.not_public_key", value=show_value(value))
    return value.strip().lower()


def _language(value: object) -> str | None:
    return None if _choice(*LANGUAGES, "auto")(value) == "auto" else str(value)


@dataclass(frozen=True)
class TimeWindow:
    """A daily time range, in minutes after midnight; it may wrap past midnight (23:00-08:00)."""

    start: int
    end: int

    def contains(self, hour: int, minute: int = 0) -> bool:
        now = hour * 60 + minute
        if self.start < self.end:
            return self.start <= now < self.end
        return now >= self.start or now < self.end

    def __str__(self) -> str:
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"


def _clock(text: str) -> int:
    hour, _, minute = text.strip().partition(":")
    if not (hour.isdigit() and minute.isdigit() and len(minute) == 2):
        raise ValueError
    if not (int(hour) <= 23 and int(minute) <= 59):
        raise ValueError
    return int(hour) * 60 + int(minute)


def _window(value: object) -> TimeWindow:
    bad = Refused("cli.config.not_window", value=show_value(value))
    if not isinstance(value, str) or value.count("-") != 1:
        raise bad
    try:
        window = TimeWindow(*(_clock(part) for part in value.split("-")))
    except ValueError:
        raise bad from None
    if window.start == window.end:
        raise Refused("cli.config.empty_window", value=show_value(value))
    return window


def _key(default: Any, doc: str, parse: Callable[[object], Any], example: Any = None) -> Any:
    """A config key: its default, its one-line description, its parser, an example if unset.
    A callable default is asked each time a config is made (it depends on the machine)."""
    metadata = {"doc": doc, "parse": parse, "example": example}
    if callable(default):
        return field(default_factory=default, metadata=metadata)
    return field(default=default, metadata=metadata)


_CONTRAST = _int(0, 255, "contrast")


# ---------------------------------------------------------------------------------------------
# The sections.

@dataclass(frozen=True)
class ReaderConfig:
    """[reader]: the NFC reader, and how a card held on it becomes one tap."""

    kind: str = _key("rc522", "rc522 (SPI), pn532 (UART), mfrc522 (PyPI library) or sim",
                     _choice("rc522", "pn532", "mfrc522", "sim"))
    spi_bus: int = _key(0, "rc522/mfrc522: SPI bus (0 uses GPIO 9/10/11, 1 uses 19/20/21)",
                        _int(0, 1, "spi_bus"))
    spi_device: int = _key(0, "rc522/mfrc522: chip select (0 = CE0, GPIO 8 on SPI0)",
                           _int(0, 2, "chip_select"))
    reset_pin: int | None = _key(25, 'rc522/mfrc522: GPIO wired to RST ("none" if tied to 3.3 V)',
                                 _pin(optional=True))
    irq_pin: int | None = _key(None, "rc522: GPIO wired to IRQ (optional; polling works without)",
                               _pin(optional=True), example=24)
    antenna_gain: int = _key(33, "rc522: receiver gain in dB; raise it if cards read poorly",
                             _one_of(18, 23, 33, 38, 43, 48))
    serial_port: str = _key(default_uart, "pn532: serial port; by default the UART on GPIO 14/15 "
                            "(/dev/ttyAMA0 on a Pi 5, /dev/serial0 before)", _text)
    baudrate: int = _key(115200, "pn532: serial speed", _int(9600, 921600, "baudrate"))
    poll_hz: int = _key(20, "reader polls per second", _int(1, 100, "poll_rate"))
    miss_limit: int = _key(3, "missed polls before a card counts as lifted",
                           _int(1, 50, "polls"))
    debounce_ms: int = _key(1500, "a card lifted and put back within this time is one tap",
                            _int(0, 10000, "ms"))


@dataclass(frozen=True)
class DisplayConfig:
    """[display]: the 128x64 OLED."""

    kind: str = _key("ssd1306", "ssd1306, sh1106 (most 1.3 inch modules) or sim",
                     _choice("ssd1306", "sh1106", "sim"))
    bus: str = _key("i2c", "how it is wired: i2c or spi", _choice("i2c", "spi"))
    i2c_port: int = _key(1, "i2c: bus number (1 uses GPIO 2/3)", _int(0, 22, "i2c_bus"))
    i2c_address: int = _key(0x3C, "i2c: address (0x3C, sometimes 0x3D)", _address)
    spi_bus: int = _key(0, "spi: SPI bus (may be shared with an RC522)", _int(0, 1, "spi_bus"))
    spi_device: int = _key(1, "spi: chip select (1 = CE1, GPIO 7 on SPI0)", _int(0, 2, "chip_select"))
    dc_pin: int = _key(24, "spi: GPIO wired to DC", _pin())
    reset_pin: int | None = _key(None, "spi: GPIO wired to RES (optional)", _pin(optional=True),
                                 example=23)
    contrast: int = _key(255, "brightness in use (0-255)", _CONTRAST)
    dim_contrast: int = _key(16, "brightness once dimmed after idle (0-255)", _CONTRAST)
    rotate: int = _key(0, "0, or 2 to turn the picture upside down",
                       _one_of(0, 2, reason="cli.config.not_rotation"))


@dataclass(frozen=True)
class ButtonsConfig:
    """[buttons]: four push buttons, each between its GPIO and ground."""

    up: int = _key(5, "GPIO of UP", _pin())
    down: int = _key(6, "GPIO of DOWN", _pin())
    select: int = _key(13, "GPIO of SELECT", _pin())
    back: int = _key(19, "GPIO of BACK", _pin())
    pull_up: bool = _key(True, "true: buttons close to ground; false: to 3.3 V", _bool)
    hold_seconds: float = _key(1.0, "a press this long is a hold (BACK: undo, SELECT: menu)", _hold)
    bounce_ms: int = _key(30, "contact bounce filter", _int(0, 500, "ms"))


@dataclass(frozen=True)
class KioskConfig:
    """[kiosk]: café mode, idle screens and OLED care; a time of 0 turns that step off."""

    enabled: bool = _key(False, "start at game select; admin only with a staff card", _bool)
    attract_after_s: float = _key(300.0, "kiosk: idle time mid-game before the attract screen",
                                  _seconds)
    dim_after_s: float = _key(60.0, "idle time before the screen dims", _seconds)
    screensaver_after_s: float = _key(300.0, "idle time before the moving screensaver", _seconds)
    night_blank: TimeWindow | None = _key(None, "daily hours when the screen stays blank",
                                          _window, example="23:00-08:00")


@dataclass(frozen=True)
class HistoryConfig:
    """[history]: finished and abandoned games kept in the state dir."""

    keep_journals: int = _key(200, "archived game journals kept (the oldest go first); the "
                              "history database keeps every finished game",
                              _int(1, 100000, "games"))


@dataclass(frozen=True)
class FeedbackConfig:
    """[feedback]: an optional buzzer and RGB LED; all off unless a pin is given."""

    buzzer_pin: int | None = _key(None, "GPIO of a buzzer", _pin(optional=True), example=12)
    led_red: int | None = _key(None, "GPIO of the LED's red leg", _pin(optional=True), example=17)
    led_green: int | None = _key(None, "GPIO of the LED's green leg", _pin(optional=True), example=27)
    led_blue: int | None = _key(None, "GPIO of the LED's blue leg", _pin(optional=True), example=22)
    common_anode: bool = _key(False, "true if the LED's common leg goes to 3.3 V", _bool)
    volume: int = _key(50, "buzzer loudness in percent", _int(0, 100, "percent"))
    quiet_hours: TimeWindow | None = _key(None, "daily hours with no sound", _window,
                                          example="22:00-09:00")


@dataclass(frozen=True)
class FleetConfig:
    """[fleet]: publish this table to the café's MQTT broker; the dashboard reads it there."""

    enabled: bool = _key(False, "publish games, scores and faults to the broker", _bool)
    host: str = _key("localhost", "the broker's host name or address", _text)
    port: int = _key(1883, "the broker's port (8883 is the usual one with TLS)",
                     _int(1, 65535, "port"))
    table: str | None = _key(None, "this table's name in the topics (default: the host name)",
                             _table, example="table-1")
    username: str | None = _key(None, "broker user name", _text, example="table-1")
    password: str | None = _key(None, "broker password", _text, example="secret")
    tls: bool = _key(False, "connect with TLS", _bool)
    ca_file: Path | None = _key(None, "tls: CA certificate of the broker (default: the system's)",
                                _path, example="/etc/ssl/certs/cafe-ca.pem")
    tls_insecure: bool = _key(False, "tls: accept a certificate of another host name (testing only)",
                              _bool)
    key: str | None = _key(None, "the café's tag key: hides staff cards' UIDs in the shared "
                           "staff list (the same on every table, 32 characters or more; never "
                           "published)", _text, example="a-long-random-word-of-32-characters")
    admin_key: str | None = _key(None, "the café's admin public key: only what it signs is shared "
                                 "(tabletop fleet keys --admin shows it)", _public_key,
                                 example="0" * 64)
    home_assistant: bool = _key(True, "announce the table to Home Assistant (MQTT discovery)",
                                _bool)
    dashboard_host: str = _key("127.0.0.1", "tabletop dashboard: address to listen on", _text)
    dashboard_port: int = _key(8080, "tabletop dashboard: port", _int(1, 65535, "port"))
    dashboard_token: str | None = _key(None, "tabletop dashboard: token asked for when not on "
                                       "127.0.0.1", _text, example="a-long-random-word")
    dashboard_names: str | None = _key(None, "tabletop dashboard: the host names it answers to "
                                       "when not on 127.0.0.1, comma-separated", _text,
                                       example="cafe-screen.local,192.168.1.20")
    dashboard_language: str = _key("en", "tabletop dashboard: the wall screen's language (a "
                                   "page's ?lang= wins)", _choice(*LANGUAGES))
    dashboard_finished: int = _key(10, "tabletop dashboard: finished games listed, newest first",
                                   _int(0, 200, "games"))


@dataclass(frozen=True)
class WebConfig:
    """[web]: the table's own page, for the phones at the table (docs/web.md)."""

    enabled: bool = _key(True, "serve the page: join by the code the screen shows", _bool)
    host: str | None = _key(None, "address to listen on (default: every interface on the table, "
                            "127.0.0.1 in the simulator)", _text, example="0.0.0.0")
    port: int = _key(8081, "port (the next free one if taken; 0: any free one); the café "
                     "dashboard keeps 8080",
                     _int(0, 65535, "port"))


@dataclass(frozen=True)
class Config:
    """The whole configuration. Top-level keys come first in the file, then one table a part."""

    reader: ReaderConfig = field(default_factory=ReaderConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    history: HistoryConfig = field(default_factory=HistoryConfig)
    feedback: FeedbackConfig = field(default_factory=FeedbackConfig)
    fleet: FleetConfig = field(default_factory=FleetConfig)
    web: WebConfig = field(default_factory=WebConfig)
    language: str | None = _key(None, 'screen and command language: en, fr or "auto" (the system '
                                      'locale); on the screen, the Language menu item wins',
                                _language, example="auto")
    state_dir: Path | None = _key(None, "games, decks and history (default ~/.local/state/tabletop)",
                                  _path, example="/var/lib/tabletop")
    log_level: str = _key("info", "tabletop run's log: debug, info, warning or error "
                          "(--verbose: debug)", _choice("debug", "info", "warning", "error"))


SECTIONS: dict[str, type] = {"reader": ReaderConfig, "display": DisplayConfig,
                             "buttons": ButtonsConfig, "kiosk": KioskConfig,
                             "history": HistoryConfig,
                             "feedback": FeedbackConfig, "fleet": FleetConfig,
                             "web": WebConfig}
TOP_KEYS = ("language", "state_dir", "log_level")
# Keys an older version read and this one ignores: a file that still has one starts, and
# `tabletop config --check` says it can go.
RETIRED = {"fleet.buffer_events": "cli.config.retired.buffer_events"}
