"""The 128x64 OLED (SSD1306 or SH1106, on I2C or SPI) through luma.oled, sending only what changed.

luma initialises the controller; updates then use page addressing (SSD1306
datasheet §10.1.3, SH1106 §9): for each 8-row page that changed, set the page
and start column, then send the changed column span. A one-line text change
is a few hundred bytes instead of luma's 1 KiB frame, which matters at I2C's
100-400 kHz. A full frame is sent only when the panel's content is unknown:
the first update, and the one after an I/O error. I/O errors never escape
`show`: they are counted, kept in `last_error`, and `ok` turns False until an
update succeeds again.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hardware.errors import DisplayError
from hardware.pages import PageWrite, pack_pages, page_writes

log = logging.getLogger(__name__)

# Commands (SSD1306 datasheet Table 9-1; the SH1106 shares the page-addressing ones)
SET_MEMORY_ADDRESSING_MODE, PAGE_ADDRESSING = 0x20, 0x02
SET_PAGE_START = 0xB0
SET_LOWER_COLUMN = 0x00
SET_HIGHER_COLUMN = 0x10

# The SH1106 has 132 columns of RAM; a 128-pixel panel shows columns 2..129.
COLUMN_OFFSET = {"ssd1306": 0, "sh1106": 2}


@dataclass(frozen=True)
class PanelConfig:
    controller: str = "ssd1306"        # or "sh1106"
    interface: str = "i2c"             # or "spi"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    dc_pin: int = 24                   # SPI only, BCM
    reset_pin: int | None = None       # SPI only, BCM; None when RES is tied high
    rotate: int = 0                    # quarter turns, as luma counts them
    contrast: int = 0xCF
    dim_contrast: int = 0x10


class OledDisplay:
    """A luma ssd1306 / sh1106 device with page-diff updates.

    ``on_close`` callables release what the opener acquired beside the device.
    """

    def __init__(self, device: Any, *, controller: str = "ssd1306", contrast: int = 0xCF,
                 dim_contrast: int = 0x10, on_close: Iterable[Callable[[], None]] = ()):
        if controller not in COLUMN_OFFSET:
            raise ValueError(f"controller must be one of {sorted(COLUMN_OFFSET)}, not {controller!r}")
        from luma.core.error import Error as LumaError  # luma turns some EIO into its own errors

        self._device, self._controller = device, controller
        self._levels = {False: contrast, True: dim_contrast}
        self._on_close = list(on_close)
        self._io_errors = (OSError, LumaError)
        self._panel: tuple[bytes, ...] | None = None      # None: content unknown
        self.ok, self.errors, self.last_error = True, 0, None
        self.bytes_sent = 0                                 # by the last update
        self.updates = 0

    def show(self, image: Any) -> None:
        """Display a mode "1" image of the device's size (luma rotates it if configured)."""
        frame = pack_pages(self._device.preprocess(image))
        full = self._panel is None
        writes = page_writes(self._panel, frame)
        if not writes:
            self.bytes_sent = 0
            return
        try:
            self.bytes_sent = self._send(writes, full)
        except self._io_errors as exc:
            self._failed(exc)
            return
        self._panel, self.ok = frame, True
        self.updates += 1

    def contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError("contrast is 0..255")
        try:
            self._device.contrast(level)
        except self._io_errors as exc:
            self._failed(exc)

    def dim(self, on: bool = True) -> None:
        """Switch between the configured normal and dim contrast (not a fade, not off)."""
        self.contrast(self._levels[on])

    def close(self, paused_image: Any = None) -> None:
        """Leave `paused_image` on the panel, or switch the panel off; release the bus."""
        if paused_image is not None:
            self.show(paused_image)
        else:
            try:
                self._device.hide()
            except self._io_errors as exc:
                self._failed(exc)
        # luma's exit hook would clear the panel with horizontal-mode writes
        self._device.persist = True
        self._device.cleanup()
        for release in self._on_close:
            release()

    def _send(self, writes: list[PageWrite], full: bool) -> int:
        sent = 0
        if full and self._controller == "ssd1306":
            # luma leaves horizontal addressing; a reset panel may have anything
            self._device.command(SET_MEMORY_ADDRESSING_MODE, PAGE_ADDRESSING)
            sent += 2
        offset = COLUMN_OFFSET[self._controller]
        for write in writes:
            column = write.column + offset
            self._device.command(SET_PAGE_START | write.page, SET_LOWER_COLUMN | column & 0x0F,
                                 SET_HIGHER_COLUMN | column >> 4)
            self._device.data(list(write.data))
            sent += 3 + len(write.data)
        return sent

    def _failed(self, exc: Exception) -> None:
        self.ok, self.errors = False, self.errors + 1
        self.last_error = str(exc) or type(exc).__name__
        self._panel = None
        log.warning("display: %s (%d errors so far)", self.last_error, self.errors)


def open_display(config: PanelConfig = PanelConfig(), *, serial_interface: Any = None,
                 pin_factory: Any = None) -> OledDisplay:
    """Open the bus, initialise the controller, apply the contrast. Raises DisplayError."""
    from luma.core.error import Error as LumaError
    from luma.oled.device import sh1106, ssd1306

    if config.controller not in COLUMN_OFFSET:
        raise ValueError(f"controller must be one of {sorted(COLUMN_OFFSET)}, not {config.controller!r}")
    closers: list[Callable[[], None]] = []
    try:
        if serial_interface is None:
            serial_interface = _open_bus(config, pin_factory, closers)
        device_class = {"ssd1306": ssd1306, "sh1106": sh1106}[config.controller]
        device = device_class(serial_interface, width=128, height=64, rotate=config.rotate)
    except (LumaError, OSError, ModuleNotFoundError) as exc:
        for release in closers:
            release()
        raise DisplayError(f"{exc}. {_hint(config)}") from None
    display = OledDisplay(device, controller=config.controller, contrast=config.contrast,
                          dim_contrast=config.dim_contrast, on_close=closers)
    display.contrast(config.contrast)
    return display


def _open_bus(config: PanelConfig, pin_factory: Any, closers: list[Callable[[], None]]) -> Any:
    from luma.core.interface.serial import i2c, spi

    if config.interface == "i2c":
        return i2c(port=config.i2c_port, address=config.i2c_address)
    if config.interface == "spi":
        from hardware.luma_gpio import GpiozeroGPIO
        gpio = GpiozeroGPIO(pin_factory)
        closers.append(gpio.cleanup)
        return spi(port=config.spi_port, device=config.spi_device, gpio=gpio,
                   gpio_DC=config.dc_pin, gpio_RST=config.reset_pin)
    raise ValueError(f"display interface must be 'i2c' or 'spi', not {config.interface!r}")


def _hint(config: PanelConfig) -> str:
    if config.interface == "spi":
        return ("Enable SPI (dtparam=spi=on), install spidev (pip install 'tabletop-companion[pi]') "
                "and add the user to the spi and gpio groups")
    return (f"Enable I2C (dtparam=i2c_arm=on), add the user to the i2c group, and check that "
            f"'i2cdetect -y {config.i2c_port}' shows the panel at 0x{config.i2c_address:02X}")
