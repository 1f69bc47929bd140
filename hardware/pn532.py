"""PN532 NFC controller on its high-speed UART (HSU), from the PN532 User Manual (UM0701-02).

A command is one normal information frame from the host; the PN532 answers
with an ACK frame, then with the response frame when it is done (§6.2). The
reader survives a noisy line: it drops whatever is waiting before a command,
skips bytes until a start code, checks LCS and DCS, asks for a resend (NACK)
of a damaged response and repeats a command the PN532 NACKed, a bounded number
of times each. A response lost on the line (the PN532 acknowledged, then
nothing came) is recovered in the same poll: the host aborts the command with
an ACK frame (§6.2.1.3) and sends it again, up to `response_retries` times. A
response that stays damaged is no card, not an error. Silence through every
retry, or a confused dialogue, raises `ReaderError`; the next poll wakes the
PN532 and configures it again.
"""
from __future__ import annotations

import logging
from typing import Any

from hardware import iso14443
from hardware.errors import ReaderError

log = logging.getLogger(__name__)

# Frames (§6.2.1)
START_CODE = b"\x00\xff"
HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
APPLICATION_ERROR = 0x7F          # the one data byte of an error frame
# HSU wake-up (§7.2.11): a long preamble, then SAMConfiguration at once.
WAKE_UP = b"\x55\x55" + bytes(14)


class Cmd:
    """Command codes (§7); a response carries the code plus one."""
    GetFirmwareVersion = 0x02
    SAMConfiguration = 0x14
    RFConfiguration = 0x32
    InListPassiveTarget = 0x4A


SAM_NORMAL_MODE, SAM_TIMEOUT_1S, SAM_USE_IRQ = 0x01, 0x14, 0x01
CFG_MAX_RETRIES = 0x05
BRTY_106K_TYPE_A = 0x00
PN532_IC = 0x32
MAX_GARBAGE = 64                  # bytes skipped while looking for a start code


class _Ack:
    pass


class _Nack:
    pass


class _Damaged(Exception):
    """A frame with a wrong LCS or DCS."""


class _Timeout(ReaderError):
    """Nothing, or too little, came from the PN532 within the port's timeout."""


class _Corrupt(ReaderError):
    """Every copy of a response failed its checksum: the poll finds no card."""


def encode_frame(data: bytes) -> bytes:
    """A normal information frame around TFI + PD0..PDn."""
    length = len(data)
    if not 0 < length < 255:
        raise ValueError(f"normal frames carry 1..254 bytes, not {length}")
    return (b"\x00" + START_CODE + bytes([length, -length & 0xFF]) + data
            + bytes([-sum(data) & 0xFF, 0x00]))


class PN532UART:
    """A PN532 on an open pyserial port (115200 8N1, a read timeout of ~0.1-0.3 s).

    ``passive_retries`` goes to RFConfiguration MaxRetries: how often the PN532
    tries to activate a card before InListPassiveTarget answers "no target"
    (0xFF would make it wait forever). ``attempts`` bounds resends after a NACK
    or a damaged frame; ``response_retries`` bounds how often a command whose
    response never came is aborted and sent again.
    """

    def __init__(self, port: Any, *, passive_retries: int = 1, attempts: int = 3,
                 response_retries: int = 2):
        if not 0 <= passive_retries < 0xFF:
            raise ValueError("passive_retries must be 0..254: 255 means wait for ever")
        self._port = port
        self._passive_retries = passive_retries
        self._attempts = attempts
        self._response_retries = response_retries
        self._ready = False
        self.firmware: tuple[int, int, int, int] | None = None

    def poll(self) -> str | None:
        """One InListPassiveTarget: the UID of the card in the field, or None."""
        try:
            if not self._ready:
                self._start()
            answer = self._call(Cmd.InListPassiveTarget, bytes([1, BRTY_106K_TYPE_A]))
        except _Corrupt as exc:
            log.debug("PN532: %s", exc)
            return None
        except OSError:
            self._ready = False
            raise
        return _target_uid(answer)

    def close(self) -> None:
        self._port.close()

    def _start(self) -> None:
        self._port.write(WAKE_UP)
        self._call(Cmd.SAMConfiguration, bytes([SAM_NORMAL_MODE, SAM_TIMEOUT_1S, SAM_USE_IRQ]))
        version = self._call(Cmd.GetFirmwareVersion)
        if len(version) != 4 or version[0] != PN532_IC:
            raise ReaderError(f"not a PN532 on this port (firmware answer {version.hex()})")
        self.firmware = (version[0], version[1], version[2], version[3])
        self._call(Cmd.RFConfiguration,
                   bytes([CFG_MAX_RETRIES, 0xFF, 0x01, self._passive_retries]))
        self._ready = True

    # --- the dialogue (§6.2.2) ------------------------------------------------

    def _call(self, command: int, params: bytes = b"") -> bytes:
        """Send a command, wait for its ACK and response, return the response data."""
        frame = encode_frame(bytes([HOST_TO_PN532, command]) + params)
        for _ in range(1 + self._response_retries):
            try:
                self._send(frame)
                return self._response(command)
            except _Timeout:
                # Lost on the line, or the PN532 is still busy: an ACK frame
                # aborts whatever it is doing, so the command can go again.
                self._port.write(ACK)
                log.debug("PN532: no answer to command 0x%02X, aborting and sending it again",
                          command)
            except ReaderError:
                self._port.write(ACK)
                raise
        raise ReaderError(f"PN532 timed out {1 + self._response_retries} times on command "
                          f"0x{command:02X}: check wiring, power and the HSU mode switches")

    def _send(self, frame: bytes) -> None:
        for _ in range(self._attempts):
            self._port.reset_input_buffer()
            self._port.write(frame)
            if self._acknowledged():
                return
            log.debug("PN532: NACK, sending the command again")
        raise ReaderError(f"PN532 refused a command {self._attempts} times: noisy line?")

    def _acknowledged(self) -> bool:
        for _ in range(self._attempts):
            try:
                reply = self._frame()
            except _Damaged:
                continue
            if isinstance(reply, (_Ack, _Nack)):
                return isinstance(reply, _Ack)
            log.debug("PN532: stray frame %s while waiting for ACK", reply.hex())
        raise ReaderError("PN532 sent no ACK")

    def _response(self, command: int) -> bytes:
        damaged = False
        for attempt in range(1, self._attempts + 1):
            try:
                reply = self._frame()
            except _Damaged:
                damaged = True
                if attempt < self._attempts:
                    self._port.write(NACK)   # asks the PN532 to send the response again
                continue
            if isinstance(reply, (_Ack, _Nack)):
                continue
            if reply == bytes([APPLICATION_ERROR]):
                raise ReaderError(f"PN532 rejected command 0x{command:02X} (error frame)")
            if reply[:2] == bytes([PN532_TO_HOST, command + 1]):
                return reply[2:]
            log.debug("PN532: unexpected frame %s", reply.hex())
        if damaged:
            raise _Corrupt(f"response to command 0x{command:02X} kept failing its checksum")
        raise ReaderError(f"PN532 gave no usable response to command 0x{command:02X}")

    # --- frame reading (§6.2.1) -------------------------------------------------

    def _frame(self) -> bytes | _Ack | _Nack:
        self._sync()
        length, check = self._read(2)
        if (length, check) == (0x00, 0xFF):
            return _Ack()
        if (length, check) == (0xFF, 0x00):
            return _Nack()
        if (length + check) & 0xFF:
            raise _Damaged()
        rest = self._read(length + 2)          # TFI..PDn, DCS, postamble
        data, dcs = rest[:length], rest[length]
        if (sum(data) + dcs) & 0xFF:
            raise _Damaged()
        return data

    def _sync(self) -> None:
        previous = -1
        for _ in range(MAX_GARBAGE):
            byte = self._read(1)[0]
            if previous == 0x00 and byte == 0xFF:
                return
            previous = byte
        raise ReaderError(f"no PN532 frame in {MAX_GARBAGE} bytes: wrong baud rate or noise")

    def _read(self, count: int) -> bytes:
        data = self._port.read(count)
        if len(data) < count:
            raise _Timeout("PN532 timed out")
        return data


def _target_uid(answer: bytes) -> str | None:
    """The NFCID1 of InListPassiveTarget's first target (§7.3.5), or None."""
    if not answer or answer[0] == 0:
        return None
    # NbTg, Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1...
    if len(answer) < 6 or answer[5] not in iso14443.UID_LENGTHS or len(answer) < 6 + answer[5]:
        log.debug("PN532: malformed InListPassiveTarget answer %s", answer.hex())
        return None     # a garbled answer is no card, as a corrupt frame is
    return iso14443.uid_hex(answer[6:6 + answer[5]])


def open_pn532(path: str = "/dev/serial0", *, baudrate: int = 115200,
               timeout: float = 0.2, passive_retries: int = 1) -> PN532UART:
    """A PN532 on a serial device; pyserial is imported only here."""
    import serial
    try:
        port = serial.Serial(path, baudrate, timeout=timeout)
    except serial.SerialException as exc:
        raise ReaderError(f"cannot open {path}: {exc}. Enable the UART (enable_uart=1), "
                          "remove the serial console and add the user to dialout") from None
    return PN532UART(port, passive_retries=passive_retries)
