"""A PN532 in HSU mode (UM0701-02), for tests: the chip, and the lines it can sit on.

`FakePN532` is the chip. It sleeps until it hears the HSU wake-up preamble (55 55),
checks LCS and DCS of every command frame, answers a damaged one with NACK, a good one
with ACK then the response frame, and resends its last response when the host NACKs.
Knobs inject the faults a real line has: garbage before the ACK, a NACK, damaged
responses, responses lost after their ACK, silence. A host ACK frame aborts the command
in progress, as on the chip.

Targets: `uid` is one card; `targets` several, each a UID and, for an ISO/IEC 14443-4
card, its ATS. InListPassiveTarget reports at most MaxTg of them (§7.3.5), every one with
its SENS_RES, SEL_RES, NFCID1 and ATS, so a reader of the answer has to step over an ATS
to find the next target. `power_loss()` is a brown-out: the chip forgets its
configuration (MaxRetries back to 0xFF: with no card, InListPassiveTarget never ends)
and sleeps until the wake-up preamble again.

`SerialLine` puts it behind a pyserial-like port in the test's own thread: what the chip
answers is waiting before the host reads, and a read that finds too few bytes returns
what there is, as pyserial does once its timeout has run out. Nothing depends on how
fast a thread is scheduled. `UsbAdapter` is a USB-serial adapter that can be pulled out:
its open lines then fail as pyserial's do on a vanished device (SerialException, and
termios.error from the flush), opening its node fails until it is plugged in again, and
the PN532 it powers loses power. `PtyLine` puts the chip on the master side of a real
pty, for the tests that open the port by its path.
"""
from __future__ import annotations

import errno
import os
import select
import termios
import threading

import serial

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"    # syntax error: unknown command


def frame(data: bytes, tfi: int = 0xD5) -> bytes:
    body = bytes([tfi]) + bytes(data)
    return (b"\x00\x00\xff" + bytes([len(body), -len(body) & 0xFF]) + body
            + bytes([-sum(body) & 0xFF, 0x00]))


class FakePN532:
    """The chip: `hear(bytes)` takes what the host sent and returns what the chip sends."""

    def __init__(self) -> None:
        self.uid: bytes | None = None
        self.targets: list[tuple[bytes, bytes]] = []   # (UID, ATS or b"") beyond `uid`
        self.awake = False
        self.commands: list[int] = []
        self.nacks_sent = self.nacks_received = 0
        self.garbage = b""               # written before every ACK
        self.nack_next = False           # refuse the next good command once
        self.damage_responses = 0        # the next N responses sent (resends too) are damaged
        self.lose_responses = 0          # the next N commands are ACKed, their response lost
        self.aborts = 0                  # host ACK frames heard: "abort the current command"
        self.mute = False                # hear everything, answer nothing
        self.max_retries: int | None = None
        self.error_on: set[int] = set()  # commands answered with an error frame
        self._buffer = b""
        self._last_response = b""
        self._out = bytearray()

    def hear(self, chunk: bytes) -> bytes:
        if b"\x55\x55" in chunk:         # per chunk, as the chip's HSU wakes on the preamble
            self.awake = True
        if self.awake and not self.mute:
            self._buffer += chunk
            self._drain()
        out, self._out = bytes(self._out), bytearray()
        return out

    def _drain(self) -> None:
        while True:
            start = self._buffer.find(b"\x00\xff")
            if start < 0 or len(self._buffer) < start + 4:
                return
            length, check = self._buffer[start + 2], self._buffer[start + 3]
            if (length, check) in ((0x00, 0xFF), (0xFF, 0x00)):      # host ACK or NACK
                self._buffer = self._buffer[start + 4:]
                if (length, check) == (0xFF, 0x00):
                    self.nacks_received += 1
                    self._send_response()
                else:
                    self.aborts += 1
                    self._last_response = b""    # nothing left to resend
                continue
            if (length + check) & 0xFF:
                self._refuse(start + 4)
                continue
            end = start + 4 + length + 1
            if len(self._buffer) < end:
                return
            body, dcs = self._buffer[start + 4:end - 1], self._buffer[end - 1]
            self._buffer = self._buffer[end:]
            if (sum(body) + dcs) & 0xFF or body[:1] != b"\xd4":
                self._refuse(0)
                continue
            self._answer(body[1], body[2:])

    def _refuse(self, skip: int) -> None:
        self._buffer = self._buffer[skip:]
        self.nacks_sent += 1
        self._out += NACK

    def _answer(self, command: int, params: bytes) -> None:
        if self.nack_next:
            self.nack_next = False
            self._refuse(0)
            return
        self.commands.append(command)
        self._out += self.garbage + ACK
        if command == 0x4A and self.max_retries is None and not self.uid and not self.targets:
            self._last_response = b""        # still looking for a card: no response yet
            return
        data = self.handle(command, params)
        self._last_response = ERROR_FRAME if data is None else frame(data)
        if self.lose_responses:
            self.lose_responses -= 1         # the host waits in vain for this one
            return
        self._send_response()

    def _send_response(self) -> None:
        response = self._last_response
        if response and self.damage_responses:
            self.damage_responses -= 1
            response = response[:-2] + bytes([response[-2] ^ 0xFF, 0x00])   # wrong DCS
        self._out += response

    def power_loss(self) -> None:
        """Power gone and back: asleep, unconfigured, nothing half-heard."""
        self.awake, self.max_retries = False, None
        self._buffer, self._last_response, self._out = b"", b"", bytearray()

    def handle(self, command: int, params: bytes) -> bytes | None:
        if command in self.error_on:
            return None
        if command == 0x02:
            return bytes([0x03, 0x32, 0x01, 0x06, 0x07])
        if command == 0x14:
            return b"\x15"
        if command == 0x32:
            if params[:1] == b"\x05":
                self.max_retries = params[3]
            return b"\x33"
        if command == 0x4A:
            return self._list_targets(params[0])
        return None

    def _list_targets(self, max_tg: int) -> bytes | None:
        present = ([(self.uid, b"")] if self.uid else []) + self.targets
        answer = bytearray([0x4B, min(max_tg, len(present))])
        for number, (uid, ats) in enumerate(present[:max_tg], start=1):
            sens = b"\x00\x44" if len(uid) == 7 else b"\x00\x04"
            sel = (0x20 if ats else 0x00) | (0x08 if len(uid) == 4 else 0x00)
            answer += bytes([number, *sens, sel, len(uid), *uid]) + ats
        return bytes(answer)


class SerialLine:
    """A pyserial-like port with the chip at its other end, in the caller's thread."""

    def __init__(self, chip: FakePN532, adapter: UsbAdapter | None = None) -> None:
        self.chip = chip
        self._adapter = adapter
        self._incoming = bytearray()
        self.is_open = True

    @property
    def _gone(self) -> bool:
        """The adapter was pulled out since this line was opened."""
        adapter = self._adapter
        return adapter is not None and (not adapter.plugged or adapter.line is not self)

    def write(self, data: bytes) -> int:
        if self._gone:
            raise serial.SerialException(f"write failed: [Errno {errno.EIO}] Input/output error")
        self._incoming += self.chip.hear(bytes(data))
        return len(data)

    def read(self, size: int = 1) -> bytes:
        """Up to `size` bytes: fewer when the chip sent fewer (the read timed out)."""
        if self._gone:
            raise serial.SerialException("device reports readiness to read but returned no data "
                                         "(device disconnected or multiple access on port?)")
        data = bytes(self._incoming[:size])
        del self._incoming[:size]
        return data

    def reset_input_buffer(self) -> None:
        if self._gone:                   # tcflush on a dead descriptor
            raise termios.error(errno.EIO, "Input/output error")
        self._incoming.clear()

    def close(self) -> None:
        self.is_open = False


class UsbAdapter:
    """A USB-serial adapter with the PN532 behind it, powered by it; `open()` is the node."""

    def __init__(self, chip: FakePN532) -> None:
        self.chip = chip
        self.plugged = True
        self.opened = 0
        self.line: SerialLine | None = None

    def open(self) -> SerialLine:
        if not self.plugged:
            raise serial.SerialException(
                errno.ENOENT, "could not open port /dev/ttyUSB0: [Errno 2] No such file or directory")
        self.opened += 1
        self.line = SerialLine(self.chip, adapter=self)
        return self.line

    def pull_out(self) -> None:
        self.plugged = False
        self.chip.power_loss()

    def plug_in(self) -> None:
        """Back, as a new node: lines opened before stay dead."""
        self.plugged = True


class PtyLine(threading.Thread):
    """The chip on the master side of a pty: the host opens the slave by its path."""

    def __init__(self, chip: FakePN532, fd: int) -> None:
        super().__init__(daemon=True)
        self.chip = chip
        self.fd = fd
        self._halt = threading.Event()   # not `_stop`: that would shadow Thread._stop

    def stop(self) -> None:
        self._halt.set()
        self.join()

    def run(self) -> None:
        while not self._halt.is_set():
            if not select.select([self.fd], [], [], 0.01)[0]:
                continue
            try:
                answer = self.chip.hear(os.read(self.fd, 512))
                if answer:
                    os.write(self.fd, answer)
            except OSError:
                return
