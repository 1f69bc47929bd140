"""The hardware layer: drivers behind small interfaces, each with a simulated twin.

Interfaces
    TagReader   ``poll() -> str | None`` runs one detection cycle and returns
                the card's UID as uppercase hex (8 digits for 4 bytes, 14 for
                7, 20 for 10), or None; raises OSError when the part fails.
                ``close()``. A reader that tells several cards apart also has
                ``poll_all() -> iso14443.FieldScan``: every UID it read, and
                whether cards answered that it could not tell apart.
    Display     ``show(image)`` takes a mode "1" 128x64 PIL image;
                ``contrast(level)``; ``close(paused_image=None)`` leaves the
                paused frame on, or switches the panel off without one.
                A real panel also has ``tend()``, called each turn of the
                device's loop: a lost panel is initialised again and redrawn.

Events (`hardware.events`), pushed into a callback such as ``queue.Queue.put``
    Placed(uid), Removed(uid)           from `ReaderLoop` through `Presence`
    ReaderCrowded()                     cards the reader could not tell apart
    ReaderOffline(reason), ReaderBack() from `ReaderLoop`
    ButtonPressed(name), ButtonHeld(name)   from `Buttons` / `SimButtons`;
                                        names UP, DOWN, SELECT, BACK

Parts
    rc522.RC522 / open_rc522            MFRC522 on spidev (the default reader)
    pn532.PN532UART / open_pn532        PN532 on a UART, with pyserial
    mfrc522_backend.open_mfrc522        the optional `mfrc522` package
    mfrc522_peer.run_read_loop          that package's read loop, for the bench
    anticollision.Inventory             every type A card in a field (ISO 14443-3)
    presence.Presence                   polls -> Placed / Removed
    reader_loop.ReaderLoop              the reader thread
    buttons.Buttons, pins.bus_claims    gpiozero buttons and the pin check
    display.OledDisplay / open_display  SSD1306 / SH1106 via luma.oled
    sim.SimReader, sim.SimButtons       simulated reader and buttons
    sim_display.FrameDisplay            last frame, PNG files
    sim_display.halfblocks, ...         a frame drawn as text, for a terminal
    fake_rc522.FakeMFRC522              a register-level chip for tests and the bench
    fake_card.FakeCard                  an ISO 14443-3 card answering bit by bit, for it

Wiring, in the device::

    events = queue.Queue()
    reader = open_rc522(reset_pin=25)                      # or SimReader()
    loop = ReaderLoop(reader, events.put, presence=Presence(misses=3), rate_hz=20)
    loop.start()
    buttons = Buttons(events.put, {"UP": 5, "DOWN": 6, "SELECT": 13, "BACK": 19},
                      claims=bus_claims({"SPI0": "the RC522", "I2C1": "the OLED"},
                                        {25: "the RC522 reset line"}))
    display = open_display(PanelConfig(controller="sh1106"))
    display.show(frame)                                    # only changed pages travel

Importing this package, or any module in it, imports no hardware library
(spidev, lgpio, RPi.GPIO, mfrc522, luma, gpiozero, serial): they load when a
part is opened, so tests and ``--help`` work on any machine.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from hardware.events import (
    BUTTON_NAMES,
    ButtonHeld,
    ButtonPressed,
    HardwareEvent,
    Placed,
    ReaderBack,
    ReaderCrowded,
    ReaderOffline,
    Removed,
)


@runtime_checkable
class TagReader(Protocol):
    def poll(self) -> str | None: ...

    def close(self) -> None: ...


@runtime_checkable
class Display(Protocol):
    def show(self, image: Any) -> None: ...

    def contrast(self, level: int) -> None: ...

    def close(self, paused_image: Any = None) -> None: ...


__all__ = ["BUTTON_NAMES", "ButtonHeld", "ButtonPressed", "Display", "HardwareEvent", "Placed",
           "ReaderBack", "ReaderCrowded", "ReaderOffline", "Removed", "TagReader"]
