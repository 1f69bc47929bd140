"""The companion on real parts: open the reader, buttons and display from the config, run.

A part that fails to open does not stop the table: a missing reader is
retried by the reader loop (the header says "Reader offline"), a panel that
does not answer is tried again by the loop's turns and drawn once it does (the
LED is red meanwhile), and a display bus that is not there (I2C off) leaves a
headless game that still journals every event. SIGTERM stops the loop, which
leaves a "paused" frame on the panel.
"""
from __future__ import annotations

import logging
import queue
import signal
import threading
import time

from device.config.pins import button_claims
from device.ui.render import render
from device.ui.screen import Screen
from hardware.display import PanelConfig
from hardware.errors import DisplayError
from hardware.iso14443 import FieldScan
from hardware.presence import Presence
from hardware.reader_loop import ReaderLoop

from .inputs import PartStatus, Tick
from .loop import Frames, run_forever
from .service import Service

log = logging.getLogger(__name__)


class Unavailable:
    """Stands in for a part that could not be opened: every poll fails, so the loop retries."""

    def __init__(self, why: str, reopen) -> None:
        self.why, self.reopen, self.part = why, reopen, None

    def poll(self):
        return self._opened().poll()

    def poll_all(self) -> FieldScan:
        """Every card, from a reader that reports them all; one from one that does not."""
        part = self._opened()
        return part.poll_all() if hasattr(part, "poll_all") else FieldScan.of(part.poll())

    def _opened(self):
        if self.part is None:
            try:
                self.part = self.reopen()
            except Exception as exc:
                raise OSError(str(exc)) from None
        return self.part

    def close(self) -> None:
        if self.part is not None:
            self.part.close()


def open_reader(config):
    """The configured reader; it is opened (and reopened) by its first poll."""
    return Unavailable("not opened yet", lambda: open_reader_now(config))


def open_reader_now(config):
    """The configured reader, opened at once (`tabletop doctor` polls it once)."""
    r = config.reader
    if r.kind == "pn532":
        from hardware.pn532 import open_pn532
        return open_pn532(r.serial_port, baudrate=r.baudrate)
    if r.kind == "mfrc522":
        from hardware.mfrc522_backend import open_mfrc522
        return open_mfrc522(r.spi_bus, r.spi_device, reset_pin=r.reset_pin or 25)
    from hardware.rc522 import open_rc522
    return open_rc522(r.spi_bus, r.spi_device, reset_pin=r.reset_pin, irq_pin=r.irq_pin,
                      gain=r.antenna_gain)


def open_panel(config, on_status=None):
    """The configured panel; `on_status(ok, why)` hears it lost and back (once each)."""
    d = config.display
    from hardware.display import open_display
    return open_display(PanelConfig(controller=d.kind, interface=d.bus, i2c_port=d.i2c_port,
                                    i2c_address=d.i2c_address, spi_port=d.spi_bus,
                                    spi_device=d.spi_device, dc_pin=d.dc_pin,
                                    reset_pin=d.reset_pin, rotate=d.rotate, contrast=d.contrast,
                                    dim_contrast=d.dim_contrast), on_status=on_status)


class NoDisplay:
    """A headless table: frames go nowhere, the game goes on."""

    def show(self, image) -> None:
        pass

    def contrast(self, level: int) -> None:
        pass

    def close(self, paused_image=None) -> None:
        pass


def paused_frame(app) -> object:
    return render(Screen(app.t("ui.title"), "", (app.t("ui.paused"),)))


def run_appliance(app, config, web=None) -> int:
    inputs: queue.Queue = queue.Queue()
    stop = threading.Event()

    def stop_now(*_) -> None:
        stop.set()
        inputs.put(Tick())             # wakes the loop now, not at its next timeout

    signal.signal(signal.SIGTERM, stop_now)
    signal.signal(signal.SIGINT, stop_now)
    r = config.reader
    reader_loop = ReaderLoop(open_reader(config), inputs.put, rate_hz=r.poll_hz,
                             presence=Presence(misses=r.miss_limit, debounce_ms=r.debounce_ms))
    reader_loop.start()
    buttons = open_buttons(config, inputs)
    try:
        display = open_panel(config, lambda ok, why: inputs.put(PartStatus("display", ok, why)))
    except (DisplayError, ValueError) as exc:
        log.error("display: %s", exc)
        inputs.put(PartStatus("display", False, str(exc)))
        display = NoDisplay()
    service = Service()
    frames = Frames(display, on_first=service.ready)
    if web is not None:                # the table's page: its lines come onto the queue
        web.on_hardware(inputs.put, frames)
    try:
        run_forever(app, inputs, frames, time.monotonic, stop, heartbeat=service.alive)
    finally:
        service.stopping()
        reader_loop.stop()
        if buttons is not None:
            buttons.close()
        app.store.close()
        display.close(paused_frame(app))
    return 0


def reader_tags(config):
    """The UIDs of cards placed on the configured reader, one per tap, until interrupted."""
    from hardware.events import Placed
    r = config.reader
    events: queue.Queue = queue.Queue()
    loop = ReaderLoop(open_reader(config), events.put, rate_hz=r.poll_hz,
                      presence=Presence(misses=r.miss_limit, debounce_ms=r.debounce_ms))
    loop.start()
    try:
        while True:
            event = events.get()
            if isinstance(event, Placed):
                yield event.uid
    finally:
        loop.stop()


def open_buttons(config, inputs: queue.Queue):
    try:
        return open_buttons_now(config, inputs.put)
    except Exception as exc:           # no GPIO: the reader and the screen still work
        log.error("buttons: %s", exc)
        return None


def button_pins(config) -> dict[str, int]:
    b = config.buttons
    return {"UP": b.up, "DOWN": b.down, "SELECT": b.select, "BACK": b.back}


def open_buttons_now(config, emit):
    """The configured buttons (`tabletop doctor` opens them to see none is down)."""
    from hardware.buttons import Buttons
    b = config.buttons
    return Buttons(emit, button_pins(config), pull_up=b.pull_up, hold_s=b.hold_seconds,
                   debounce_s=b.bounce_ms / 1000, claims=button_claims(config))
