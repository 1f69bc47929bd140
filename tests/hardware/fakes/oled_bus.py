"""An SSD1306 / SH1106 panel as its datasheet describes it, and the buses luma reaches it by.

`Panel` is the controller's state, fed the bytes luma sends: display on or off
(AEh/AFh), the charge pump (SSD1306 8Dh, SH1106 ADh), the addressing mode and
its column and page windows (SSD1306 20h, 21h, 22h), the page and column
pointers, the contrast and the GDDRAM. A power-on reset puts it back as the
datasheets say: display off, SSD1306 charge pump off, page addressing, the
pointers at 0, and RAM holding whatever the cells woke up with. `shown()` is
what a player sees: the visible columns when the panel is lit, black when not.

The panel answers on I2C like the real one: unplugged (or absent from the
start) it NACKs its address; `glitch(n)` makes it NACK after n more bytes,
once, so a transfer can fail half-way with the first part already written.
A NACK surfaces as smbus2 raises it, OSError errno 121 (EREMOTEIO).

`RecordingSerial` stands where luma's i2c/spi interface stands and records
each command tuple and data block; `FakeSMBus` stands where smbus2.SMBus
stands under luma's own i2c class and counts the bytes on the wire. Both
deliver to a Panel.
"""
from __future__ import annotations

import errno
from typing import Any

PAGES = 8
DISPLAY_OFF, DISPLAY_ON, NOP = 0xAE, 0xAF, 0xE3
CONTROL_COMMANDS, CONTROL_DATA = 0x00, 0x40

# Commands followed by argument bytes (SSD1306 Table 9-1, SH1106 §9); any other byte is
# a command of its own. The SH1106 has no 20h/21h/22h/8Dh: it takes them as one byte each.
ARGUMENTS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
                0xD9: 1, 0xDA: 1, 0xDB: 1},
    "sh1106": {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
}
RAM_COLUMNS = {"ssd1306": 128, "sh1106": 132}
VISIBLE_FROM = {"ssd1306": 0, "sh1106": 2}       # the usual 128-pixel glass on 132 columns
HORIZONTAL, VERTICAL, PAGE_ADDRESSING = 0, 1, 2


def remote_io_error() -> OSError:
    return OSError(errno.EREMOTEIO, "Remote I/O error")


class Panel:
    """One controller and its glass. `present=False`: not plugged in (it never answers)."""

    def __init__(self, controller: str = "ssd1306", *, present: bool = True, address: int = 0x3C):
        if controller not in ARGUMENTS:
            raise ValueError(controller)
        self.controller, self.address = controller, address
        self.columns = RAM_COLUMNS[controller]
        self.present = present
        self.resets = 0
        self._acks_left: int | None = None       # bytes before a one-off NACK
        self.power_on_reset()

    # ---- what the test does to it ------------------------------------------------------

    def power_on_reset(self) -> None:
        self.resets += 1
        self.on = False
        self.pump = self.controller == "sh1106"  # the SH1106's DC-DC is on after reset (ADh 8Bh)
        self.mode = PAGE_ADDRESSING
        self.column_window, self.page_window = (0, self.columns - 1), (0, PAGES - 1)
        self.page = self.column = 0
        self.contrast = 0x7F if self.controller == "ssd1306" else 0x80
        # Uninitialised cells: not black, not the frame; a stable pattern, so tests repeat.
        self.ram = [bytearray((7 * page + 13 * column) & 0xFF for column in range(self.columns))
                    for page in range(PAGES)]
        self._pending: list[int] = []

    def unplug(self) -> None:
        self.present = False

    def plug(self) -> None:
        """Plugged back in: powered up again, so reset."""
        self.present = True
        self.power_on_reset()

    def glitch(self, after_bytes: int = 0) -> None:
        """NACK once, after `after_bytes` more bytes (control and payload) were taken."""
        self._acks_left = after_bytes

    # ---- what a player sees ----------------------------------------------------------

    @property
    def lit(self) -> bool:
        return self.on and self.pump

    def shown(self) -> tuple[bytes, ...]:
        """The 128 visible columns of each page, black when the panel is not lit."""
        if not self.lit:
            return tuple(bytes(128) for _ in range(PAGES))
        start = VISIBLE_FROM[self.controller]
        return tuple(bytes(page[start:start + 128]) for page in self.ram)

    # ---- the bus side ------------------------------------------------------------------

    def transfer(self, control: int, payload: list[int]) -> None:
        """One I2C write to the panel: its address, a control byte, then the payload."""
        if not self.present:
            raise remote_io_error()             # nobody ACKs the address
        taken = self._accepted(1 + len(payload))
        if taken == 0:
            raise remote_io_error()
        accepted = payload[:taken - 1]
        if control == CONTROL_COMMANDS:
            self._pending = []
            for byte in accepted:
                self._command_byte(byte)
        elif control == CONTROL_DATA:
            for byte in accepted:
                self._write(byte)
        if taken < 1 + len(payload):
            raise remote_io_error()

    def _accepted(self, size: int) -> int:
        if self._acks_left is None:
            return size
        taken = min(size, self._acks_left)
        self._acks_left = None if taken < size else self._acks_left - size
        return taken

    def _command_byte(self, byte: int) -> None:
        self._pending.append(byte)
        if len(self._pending) <= ARGUMENTS[self.controller].get(self._pending[0], 0):
            return
        command, self._pending = self._pending, []
        self._run(command[0], command[1:])

    def _run(self, code: int, args: list[int]) -> None:
        if code in (DISPLAY_OFF, DISPLAY_ON):
            self.on = code == DISPLAY_ON
        elif code == 0x81:
            self.contrast = args[0]
        elif self.controller == "ssd1306":
            self._run_ssd1306(code, args)
        elif code == 0xAD:
            self.pump = bool(args[0] & 0x01)
        self._page_addressing(code)

    def _run_ssd1306(self, code: int, args: list[int]) -> None:
        if code == 0x8D:
            self.pump = bool(args[0] & 0x04)
        elif code == 0x20:
            self.mode = args[0] & 0x03
        elif code == 0x21:
            self.column_window = (args[0] & 0x7F, args[1] & 0x7F)
            self.column = self.column_window[0]
        elif code == 0x22:
            self.page_window = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.page_window[0]

    def _page_addressing(self, code: int) -> None:
        """B0h-B7h, 00h-0Fh, 10h-1Fh: page addressing mode's pointers (the SSD1306 ignores
        them in the other modes)."""
        if self.mode != PAGE_ADDRESSING:
            return
        if code & 0xF8 == 0xB0:
            self.page = code & 0x07
        elif code <= 0x0F:
            self.column = self.column & 0xF0 | code
        elif code <= 0x1F:
            self.column = (self.column & 0x0F | (code & 0x0F) << 4) % self.columns

    def _write(self, byte: int) -> None:
        self.ram[self.page][self.column] = byte
        first_column, last_column = self.column_window
        first_page, last_page = self.page_window
        if self.mode == PAGE_ADDRESSING:
            self.column = (self.column + 1) % self.columns   # wraps within the page
        elif self.mode == HORIZONTAL:
            self.column += 1
            if self.column > last_column:
                self.column = first_column
                self.page = first_page if self.page >= last_page else self.page + 1
        else:
            self.page += 1
            if self.page > last_page:
                self.page = first_page
                self.column = first_column if self.column >= last_column else self.column + 1


class RecordingSerial:
    """luma's serial interface contract, command(*cmd), data(list), cleanup(), onto a Panel.

    Each call is one transfer to the panel; a NACK raises as the bus would."""

    def __init__(self, controller: str = "ssd1306", panel: Panel | None = None):
        self.panel = panel or Panel(controller)
        self.commands: list[tuple[int, ...]] = []
        self.blocks: list[list[int]] = []       # not `data`: that would shadow the method
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        self.panel.transfer(CONTROL_COMMANDS, list(cmd))
        self.commands.append(cmd)

    def data(self, data: Any) -> None:
        self.panel.transfer(CONTROL_DATA, list(data))
        self.blocks.append(list(data))

    def cleanup(self) -> None:
        self.cleaned_up = True

    def forget(self) -> None:
        """Drop what was recorded so far (the controller's init)."""
        self.commands.clear()
        self.blocks.clear()

    def shown(self) -> tuple[bytes, ...]:
        return self.panel.shown()

    @property
    def bytes_sent(self) -> int:
        return sum(map(len, self.commands)) + sum(map(len, self.blocks))


class SpiSerial(RecordingSerial):
    """The same panel on SPI: bytes go out on the clock whether or not a panel listens, so a
    missing or unplugged panel never says so (SPI has no ACK)."""

    def command(self, *cmd: int) -> None:
        if self.panel.present:
            super().command(*cmd)

    def data(self, data: Any) -> None:
        if self.panel.present:
            super().data(data)


class FakeSMBus:
    """smbus2.SMBus as luma's managed i2c uses it, onto a Panel; counts wire bytes
    (address + control + payload) of the transfers the panel ACKed."""

    def __init__(self, port: int = 1, panel: Panel | None = None):
        self.port = port
        self.panel = panel or Panel()
        self.wire_bytes = self.transactions = 0
        self.sent: list[tuple[int, list[int]]] = []     # (control byte, payload) ACKed
        self.closed = False

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._send(address, register, list(data))

    def i2c_rdwr(self, *messages: Any) -> None:
        for message in messages:
            payload = list(bytes(message))
            self._send(message.addr, payload[0], payload[1:])

    def close(self) -> None:
        self.closed = True

    def commands(self) -> list[list[int]]:
        """The command transfers ACKed so far, each as its bytes."""
        return [payload for control, payload in self.sent if control == CONTROL_COMMANDS]

    def _send(self, address: int, control: int, payload: list[int]) -> None:
        if address != self.panel.address:
            raise remote_io_error()
        self.panel.transfer(control, payload)
        self.sent.append((control, payload))
        self.transactions += 1
        self.wire_bytes += 2 + len(payload)
