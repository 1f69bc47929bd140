"""The 128x64 OLED (SSD1306 or SH1106, on I2C or SPI) through luma.oled, sending only what changed.

luma initialises the controller; updates then use page addressing (SSD1306
datasheet §10.1.3, SH1106 §9): for each 8-row page that changed, set the page
and start column, then send the changed column span. A one-line text change
is a few hundred bytes instead of luma's 1 KiB frame, which matters at I2C's
100-400 kHz. A full frame is sent only when the panel's content is unknown:
the first update, and the one after an I/O error, so a transfer that failed
half-way never leaves a torn frame. I/O errors never escape: they are
counted, kept in `last_error`, and `ok` stays False until the panel has been
initialised again and shows the current frame.
"""
from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hardware.errors import DisplayError
from hardware.pages import HEIGHT, WIDTH, PageWrite, pack_pages, page_writes

log = logging.getLogger(__name__)

# Commands (SSD1306 datasheet Table 9-1; the SH1106 shares the page-addressing ones)
SET_MEMORY_ADDRESSING_MODE, PAGE_ADDRESSING = 0x20, 0x02
SET_PAGE_START = 0xB0
SET_LOWER_COLUMN = 0x00
SET_HIGHER_COLUMN = 0x10
NOP = 0xE3          # answered (ACKed) and ignored by both controllers: a cheap "are you there?"

DISPLAY_OFF, DISPLAY_ON, SET_CONTRAST = 0xAE, 0xAF, 0x81

RETRY_SECONDS = 2.0     # a lost panel is given its init sequence again this often
PROBE_SECONDS = 2.0     # a bus quiet this long gets a NOP, so an unplugged panel is noticed
# A panel that reset without ever NACKing (a brown-out, a replug quicker than the probe, any
# panel on SPI, which has no ACK) is dark: its init and frame are sent again this often, in
# an order a working panel shows nothing of.
REFRESH_SECONDS = 60.0
# On SPI nothing ever tells a replug (no ACK to miss), so only the refresh can: often enough to
# be back within seconds, and a whole frame over SPI at 8 MHz is about a millisecond.
SPI_REFRESH_SECONDS = 5.0

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
    """A luma ssd1306 / sh1106 device with page-diff updates, that comes back after a fault.

    A panel that NACKs, was replugged or was never there is sent luma's whole init
    sequence again and the current frame, every RETRY_SECONDS until it answers. A
    replugged panel wakes from its power-on reset dark and ACKs everything, so nothing
    but a NACK while it was away tells; when the bus has been quiet for PROBE_SECONDS,
    `tend` asks the panel with a NOP so an unplug is heard. For a reset no NACK told of,
    every `refresh_s` (REFRESH_SECONDS; SPI_REFRESH_SECONDS on SPI, where no NACK ever tells)
    the init and the frame are sent again, unseen on a working panel.

    The init sequence is luma's own, recorded once by building the device on a
    recorder (`init_sequence`) and replayed byte for byte: building a luma device per
    retry would leave an exit hook per failed attempt, each blanking the panel at exit.

    `tend()` is driven by the device's loop, with `clock` the loop's clock.
    `on_status(ok, reason)` hears each change once: down (with why), and back.
    ``on_close`` callables release the bus and what the opener acquired beside it
    (by default, the device's own cleanup). ``initialised=False``: the panel has not
    had its init sequence yet (the first `tend` sends it).
    """

    def __init__(self, device: Any, *, controller: str = "ssd1306", contrast: int = 0xCF,
                 dim_contrast: int = 0x10, on_close: Iterable[Callable[[], None]] = (),
                 initialised: bool = True, init: list[Transfer] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_status: Callable[[bool, str], None] | None = None,
                 refresh_s: float = REFRESH_SECONDS):
        if controller not in COLUMN_OFFSET:
            raise ValueError(f"controller must be one of {sorted(COLUMN_OFFSET)}, not {controller!r}")
        # luma turns some EIO into its own errors
        from luma.core.error import Error as LumaError

        self._device, self._controller = device, controller
        self._init = init
        self._levels = {False: contrast, True: dim_contrast}
        self._level = contrast
        # the bus is released by the device's cleanup unless the opener says how
        self._on_close = list(on_close) or [device.cleanup]
        self._io_errors = (OSError, LumaError)
        self._clock, self._on_status, self._refresh_s = clock, on_status, refresh_s
        self._panel: tuple[bytes, ...] | None = None      # None: content unknown
        self._image: Any = None                            # the frame the app means
        self._quiet_since = self._retry_at = self._refreshed_at = clock()
        self.ok, self.errors = initialised, 0
        self.last_error: str | None = None
        self._told: bool | None = True if initialised else None   # the status last said
        self.bytes_sent = 0                                 # by the last update
        self.updates = self.recoveries = 0

    def show(self, image: Any) -> None:
        """Display a mode "1" image of the device's size (luma rotates it if configured)."""
        if image.mode != "1" or image.size != self._device.size:
            width, height = self._device.size
            raise ValueError(f'the display takes a mode "1" {width}x{height} image, '
                             f"not mode {image.mode!r} {image.size[0]}x{image.size[1]}")
        self._image = image
        self.bytes_sent = 0
        if not self.ok:
            self.tend()
            return
        self._draw()

    def tend(self) -> None:
        """Bring a lost panel back when its retry is due; ask a quiet one if it is there."""
        now = self._clock()
        if not self.ok:
            if now >= self._retry_at:
                self._recover()
        elif now - self._refreshed_at >= self._refresh_s:
            self._refresh()
        elif now - self._quiet_since >= PROBE_SECONDS:
            self._io(lambda: self._device.command(NOP))

    def contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError("contrast is 0..255")
        self._level = level
        if self.ok:
            self._io(lambda: self._device.contrast(level))

    def dim(self, on: bool = True) -> None:
        """Switch between the configured normal and dim contrast (not a fade, not off)."""
        self.contrast(self._levels[on])

    def close(self, paused_image: Any = None) -> None:
        """Leave `paused_image` on the panel, or switch the panel off; release the bus."""
        if paused_image is not None:
            self.show(paused_image)
        elif self.ok:
            self._io(self._device.hide)
        # luma's exit hook would clear the panel with horizontal-mode writes
        self._device.persist = True
        for release in self._on_close:
            release()

    def _draw(self) -> None:
        if self._image is None:
            return
        frame = pack_pages(self._device.preprocess(self._image))
        writes = page_writes(self._panel, frame)
        if not writes:
            return
        try:
            self.bytes_sent = self._send(writes, full=self._panel is None)
        except self._io_errors as exc:
            self._failed(exc)
            return
        self._panel, self._quiet_since = frame, self._clock()
        self.updates += 1

    def _recover(self) -> None:
        """luma's whole init sequence, our contrast, then the whole current frame."""
        try:
            self._replay(self._init_sequence())
            self._device.contrast(self._level)
        except self._io_errors as exc:
            self._failed(exc)
            return
        self._panel, self.ok = None, True
        self._quiet_since = self._refreshed_at = self._clock()
        self._draw()
        if self.ok:
            if self._told is False:
                self.recoveries += 1
                log.warning("display: working again, initialised and redrawn (%d errors)",
                            self.errors)
                if self._on_status:
                    self._on_status(True, "")
            self._told = True

    def _refresh(self) -> None:
        """The init sequence without what a working panel would show (display off, luma's
        clear and contrast), our contrast, the whole frame, then display on: a panel that
        reset comes back, a working one shows nothing of it."""
        self._refreshed_at = self._clock()
        if self._image is None:
            return
        self._panel = None                        # what it shows is in doubt, from here on
        self._io(self._settle_settings)
        if self.ok:
            self._draw()
        if self.ok:
            self._io(lambda: self._device.command(DISPLAY_ON))

    def _settle_settings(self) -> None:
        self._replay(self._unseen_init())
        self._device.contrast(self._level)

    def _init_sequence(self) -> list[Transfer]:
        if self._init is None:
            self._init = init_sequence(type(self._device), width=self._device._w,
                                       height=self._device._h, rotate=self._device.rotate)[1]
        return self._init

    def _unseen_init(self) -> list[Transfer]:
        """The init's settings only: each data transfer (the clear) goes with the command
        before it (its addressing), and so do the contrast and display on and off."""
        sent = self._init_sequence()
        kept = []
        for at, (command, payload) in enumerate(sent):
            clearing = not command or (at + 1 < len(sent) and not sent[at + 1][0])
            if clearing or payload[0] in (SET_CONTRAST, DISPLAY_ON):
                continue
            kept.append((True, payload[1:] if payload[0] == DISPLAY_OFF else payload))
        return [(command, payload) for command, payload in kept if payload]

    def _replay(self, transfers: list[Transfer]) -> None:
        bus = self._device._serial_interface    # luma's: the device has no call for raw bytes
        for command, payload in transfers:
            if command:
                bus.command(*payload)
            else:
                bus.data(payload)

    def _io(self, work: Callable[[], Any]) -> None:
        """Run bus work; an I/O error marks the panel lost (its content and state unknown)."""
        try:
            work()
        except self._io_errors as exc:
            self._failed(exc)
            return
        self._quiet_since = self._clock()

    def _send(self, writes: list[PageWrite], full: bool) -> int:
        sent = 0
        command, data = self._device.command, self._device.data
        if full and self._controller == "ssd1306":
            # luma leaves horizontal addressing; a reset panel may have anything
            command(SET_MEMORY_ADDRESSING_MODE, PAGE_ADDRESSING)
            sent += 2
        offset = COLUMN_OFFSET[self._controller]
        page = high = after = None         # what this update set: nothing else is taken as known
        for write_page, write_column, write_data in writes:
            column = write_column + offset
            address = [] if write_page == page else [SET_PAGE_START | write_page]
            address.append(SET_LOWER_COLUMN | column & 0x0F)
            # The higher nibble is left out only where the one last sent and the pointer's,
            # moved on by the data, both say it: the datasheets (SSD1306 §10.1.1-2, SH1106
            # §9.1-2) do not say which of the two a lower-nibble command keeps.
            if not (high == column >> 4 and after is not None and after >> 4 == high):
                high = column >> 4
                address.append(SET_HIGHER_COLUMN | high)
            command(*address)
            data(list(write_data))
            page, after = write_page, column + len(write_data)
            sent += len(address) + len(write_data)
        return sent

    def _failed(self, exc: Exception) -> None:
        """Said once when the panel is lost; the retries that fail after it are only counted.

        A panel that was working is tried again at the next `tend` (a one-off NACK costs
        no more than a loop turn), then every RETRY_SECONDS."""
        self._retry_at = self._clock() + (0 if self.ok else RETRY_SECONDS)
        self.ok, self.errors = False, self.errors + 1
        self.last_error = str(exc) or type(exc).__name__
        self._panel = None
        if self._told is not False:
            self._told = False
            log.warning("display: %s; trying it again every %g s", self.last_error, RETRY_SECONDS)
            if self._on_status:
                self._on_status(False, self.last_error)


Transfer = tuple[bool, list[int]]        # (a command, else data; its bytes)


class _Recorder:
    """Stands where luma's serial interface stands while a device is built: keeps what it
    is sent, the init sequence, and never fails."""

    def __init__(self) -> None:
        self.sent: list[Transfer] = []

    def command(self, *cmd: int) -> None:
        self.sent.append((True, list(cmd)))

    def data(self, data: Any) -> None:
        self.sent.append((False, list(data)))

    def cleanup(self) -> None:
        """Nothing to release."""


def init_sequence(device_class: Any, **options: Any) -> tuple[Any, list[Transfer]]:
    """A luma device built on a recorder, and the init sequence it sent there."""
    recorder = _Recorder()
    with warnings.catch_warnings():         # luma's clear() reads the image with getdata()
        warnings.simplefilter("ignore", DeprecationWarning)
        device = device_class(recorder, **options)
    return device, recorder.sent


def open_display(config: PanelConfig = PanelConfig(), *, serial_interface: Any = None,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 on_status: Callable[[bool, str], None] | None = None) -> OledDisplay:
    """Open the bus and initialise the controller with the configured contrast.

    Raises DisplayError when the bus itself cannot be opened (I2C or SPI not enabled,
    no permission, spidev missing): that needs the Pi set up. A panel that does not
    answer yet is not an error here: the display keeps trying it (`ok` is False
    until it answers, `last_error` says why)."""
    from luma.core.error import Error as LumaError
    from luma.oled.device import sh1106, ssd1306

    if config.controller not in COLUMN_OFFSET:
        raise ValueError(f"controller must be one of {sorted(COLUMN_OFFSET)}, not {config.controller!r}")
    closers: list[Callable[[], None]] = []
    try:
        if serial_interface is None:
            serial_interface = _open_bus(config, pin_factory, closers)
    except (LumaError, OSError, ModuleNotFoundError) as exc:
        for release in closers:
            release()
        raise DisplayError(f"{exc}. {_hint(config)}") from None
    device_class = {"ssd1306": ssd1306, "sh1106": sh1106}[config.controller]
    device, init = init_sequence(device_class, width=WIDTH, height=HEIGHT, rotate=config.rotate)
    device._serial_interface = serial_interface     # from now on it talks to the panel
    display = OledDisplay(device, controller=config.controller, contrast=config.contrast,
                          dim_contrast=config.dim_contrast,
                          on_close=[serial_interface.cleanup, *closers], initialised=False,
                          init=init, clock=clock, on_status=on_status,
                          refresh_s=SPI_REFRESH_SECONDS if config.interface == "spi" else REFRESH_SECONDS)
    display.tend()                  # the first init, now
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
