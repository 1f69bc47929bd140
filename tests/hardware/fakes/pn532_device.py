"""A PN532 in HSU mode (UM0701-02), for tests: the chip, and the lines it can sit on.

`FakePN532` is the chip. It sleeps until it hears the HSU wake-up preamble (55 55),
checks LCS and DCS of every command frame, answers a damaged one with NACK, a good one
with ACK then the response frame, and resends its last response when the host NACKs.
Knobs inject the faults a real line has: garbage before the ACK, a NACK, damaged
responses, responses lost after their ACK, silence. A host ACK frame aborts the command
in progress, as on the chip.

`SerialLine` puts it behind a pyserial-like port in the test's own thread: what the chip
answers is waiting before the host reads, and a read that finds too few bytes returns
what there is, as pyserial does once its timeout has run out. Nothing depends on how
fast a thread is scheduled. `PtyLine` puts it on the master side of a real pty, for the
tests that open the port by its path.
"""
from __future__ import annotations

import os
import select
import threading

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
            if not self.uid:
                return bytes([0x4B, 0x00])
            sens, sel = (b"\x00\x44", 0x00) if len(self.uid) == 7 else (b"\x00\x04", 0x08)
            return bytes([0x4B, 0x01, 0x01, *sens, sel, len(self.uid), *self.uid])
        return None


class SerialLine:
    """A pyserial-like port with the chip at its other end, in the caller's thread."""

    def __init__(self, chip: FakePN532) -> None:
        self.chip = chip
        self._incoming = bytearray()
        self.is_open = True

    def write(self, data: bytes) -> int:
        self._incoming += self.chip.hear(bytes(data))
        return len(data)

    def read(self, size: int = 1) -> bytes:
        """Up to `size` bytes: fewer when the chip sent fewer (the read timed out)."""
        data = bytes(self._incoming[:size])
        del self._incoming[:size]
        return data

    def reset_input_buffer(self) -> None:
        self._incoming.clear()

    def close(self) -> None:
        self.is_open = False


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
