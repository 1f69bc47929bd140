"""Buses under the real luma.oled drivers, for tests.

`RecordingSerial` stands where luma's i2c/spi interface stands: it records each
command tuple and data block and models the controller's page-addressed RAM,
so a test can check both the exact bytes and what the panel ends up showing.
`FakeSMBus` stands where smbus2.SMBus stands under luma's own i2c class and
counts the bytes on the wire.
"""
from __future__ import annotations

import errno

PAGES, RAM_COLUMNS = 8, 132


class RecordingSerial:
    """luma's serial interface contract: command(*cmd), data(list), cleanup()."""

    def __init__(self, controller: str = "ssd1306", fail_after: int | None = None):
        self.commands: list[tuple[int, ...]] = []
        self.blocks: list[list[int]] = []       # not `data`: that would shadow the method
        self.fail_after = fail_after            # transfers left before EIO, None = never
        self.cleaned_up = False
        self.ram = [[None] * RAM_COLUMNS for _ in range(PAGES)]
        self._page_mode = controller == "sh1106"     # the SH1106 has no other mode
        self._page = self._column = 0

    def command(self, *cmd: int) -> None:
        self._transfer()
        self.commands.append(cmd)
        if cmd == (0x20, 0x02):
            self._page_mode = True
        elif cmd[0] == 0x20:
            self._page_mode = False
        elif len(cmd) == 3 and cmd[0] & 0xF8 == 0xB0 and cmd[1] < 0x10 and cmd[2] & 0xF0 == 0x10:
            self._page, self._column = cmd[0] & 0x07, cmd[1] | (cmd[2] & 0x0F) << 4

    def data(self, data: list[int]) -> None:
        self._transfer()
        self.blocks.append(list(data))
        if not self._page_mode:
            return                               # luma's own horizontal-mode writes: not modelled
        for byte in data:
            self.ram[self._page][self._column] = byte
            self._column = (self._column + 1) % RAM_COLUMNS   # page mode wraps within the page

    def cleanup(self) -> None:
        self.cleaned_up = True

    def forget(self) -> None:
        """Drop what was recorded so far (the controller's init)."""
        self.commands.clear()
        self.blocks.clear()

    def shown(self, offset: int = 0) -> tuple[bytes, ...]:
        """The 128 visible columns of each page, as the panel shows them."""
        return tuple(bytes(b or 0 for b in page[offset:offset + 128]) for page in self.ram)

    @property
    def bytes_sent(self) -> int:
        return sum(map(len, self.commands)) + sum(map(len, self.blocks))

    def _transfer(self) -> None:
        if self.fail_after is not None:
            if self.fail_after == 0:
                raise OSError(errno.EIO, "Remote I/O error")
            self.fail_after -= 1


class FakeSMBus:
    """smbus2.SMBus as luma's managed i2c uses it; counts wire bytes (address + control + payload)."""

    def __init__(self, port: int = 1):
        self.port = port
        self.wire_bytes = self.transactions = 0
        self.failing = False
        self.closed = False

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._count(2 + len(data))

    def i2c_rdwr(self, *messages) -> None:
        for message in messages:
            self._count(1 + message.len)

    def close(self) -> None:
        self.closed = True

    def _count(self, size: int) -> None:
        if self.failing:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.transactions += 1
        self.wire_bytes += size
