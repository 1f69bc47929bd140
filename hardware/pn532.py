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

InListPassiveTarget asks for two targets (MaxTg = 2, the most the PN532 takes at
106 kbps type A) and `poll_all()` reports both. A PN532 that hears nothing at
all any more (no ACK to any attempt: it lost power and sleeps, unconfigured) is
woken and configured again in the same poll. A port that fails (a USB-serial
adapter pulled out: pyserial's SerialException, or termios.error, which is no
OSError) is closed; each later poll tries to open it again with `reopen`, and the
PN532 behind it is woken and configured as new. The loss and the return are
logged once each, the retries between not at all.
"""
from __future__ import annotations

import logging
import termios
from collections.abc import Callable
from typing import Any

from hardware import iso14443
from hardware.errors import ReaderError
from hardware.iso14443 import FieldScan

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
MAX_TARGETS = 2                   # InListPassiveTarget's MaxTg limit (§7.3.5)
SEL_RES_ISO14443_4 = 0x20         # the target sent an ATS, which follows its NFCID1
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


class _Asleep(ReaderError):
    """No attempt of a command was even acknowledged: the PN532 hears nothing."""


class _PortLost(ReaderError):
    """The serial port failed under us (device unplugged)."""


class _Port:
    """The pyserial port, with its failures (SerialException, termios.error) as _PortLost."""

    def __init__(self, port: Any):
        self.port = port

    def _do(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except (OSError, termios.error) as exc:
            raise _PortLost(f"serial port failed: {exc}") from None

    def write(self, data: bytes) -> None:
        self._do(lambda: self.port.write(data))

    def read(self, count: int) -> bytes:
        data: bytes = self._do(lambda: self.port.read(count))
        return data

    def reset_input_buffer(self) -> None:
        self._do(self.port.reset_input_buffer)

    def close(self) -> None:
        try:
            self.port.close()
        except (OSError, termios.error):
            pass                         # it is gone already: nothing left to release


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
    response never came is aborted and sent again. ``reopen`` opens the port
    again after it failed (`open_pn532` passes one that opens the same path).
    """

    def __init__(self, port: Any, *, passive_retries: int = 1, attempts: int = 3,
                 response_retries: int = 2, reopen: Callable[[], Any] | None = None):
        if not 0 <= passive_retries < 0xFF:
            raise ValueError("passive_retries must be 0..254: 255 means wait for ever")
        self._port: _Port | None = _Port(port)
        self._reopen = reopen
        self._passive_retries = passive_retries
        self._attempts = attempts
        self._response_retries = response_retries
        self._ready = False
        self.firmware: tuple[int, int, int, int] | None = None

    def poll_all(self) -> FieldScan:
        """One InListPassiveTarget for two targets: the UIDs of the cards it found."""
        try:
            return FieldScan(_target_uids(self._list_targets()))
        except _Corrupt as exc:
            log.debug("PN532: %s", exc)
            return FieldScan()
        except _PortLost as exc:
            self._lose_port(exc)
            raise
        except OSError:
            self._ready = False
            raise

    def poll(self) -> str | None:
        """The first card of one poll, or None."""
        uids = self.poll_all().uids
        return uids[0] if uids else None

    def close(self) -> None:
        if self._port is not None:
            self._port.close()

    def _list_targets(self) -> bytes:
        if self._port is None:
            self._open_again()
        if not self._ready:
            self._start()
            return self._call(Cmd.InListPassiveTarget, bytes([MAX_TARGETS, BRTY_106K_TYPE_A]))
        try:
            return self._call(Cmd.InListPassiveTarget, bytes([MAX_TARGETS, BRTY_106K_TYPE_A]))
        except _Asleep:
            # Power lost and back: asleep and unconfigured (MaxRetries 0xFF would make
            # it wait for a card for ever). Wake and configure it now, not next poll.
            log.info("PN532 stopped answering: waking it and configuring it again")
            self._start()
            return self._call(Cmd.InListPassiveTarget, bytes([MAX_TARGETS, BRTY_106K_TYPE_A]))

    def _lose_port(self, exc: ReaderError) -> None:
        if self._port is not None:
            log.warning("PN532: %s; closed, it is opened again when it comes back", exc)
            self._port.close()
        self._port, self._ready = None, False

    def _open_again(self) -> None:
        if self._reopen is None:
            raise ReaderError("PN532: the serial port failed and there is no way to reopen it")
        try:
            port = self._reopen()
        except (OSError, termios.error) as exc:
            raise ReaderError(f"PN532: serial port not back yet: {exc}") from None
        self._port = _Port(port)
        log.info("PN532: serial port open again")

    @property
    def _line(self) -> _Port:
        if self._port is None:
            raise _PortLost("serial port closed")
        return self._port

    def _start(self) -> None:
        self._line.write(WAKE_UP)
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
        acknowledged = False
        for _ in range(1 + self._response_retries):
            try:
                self._send(frame)
                acknowledged = True
                return self._response(command)
            except _Timeout:
                # Lost on the line, or the PN532 is still busy: an ACK frame
                # aborts whatever it is doing, so the command can go again.
                self._line.write(ACK)
                log.debug("PN532: no answer to command 0x%02X, aborting and sending it again",
                          command)
            except _PortLost:
                raise
            except ReaderError:
                self._line.write(ACK)
                raise
        timed_out = _Timeout if acknowledged else _Asleep
        raise timed_out(f"PN532 timed out {1 + self._response_retries} times on command "
                        f"0x{command:02X}: check wiring, power and the HSU mode switches")

    def _send(self, frame: bytes) -> None:
        for _ in range(self._attempts):
            self._line.reset_input_buffer()
            self._line.write(frame)
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
                    self._line.write(NACK)   # asks the PN532 to send the response again
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
        data = self._line.read(count)
        if len(data) < count:
            raise _Timeout("PN532 timed out")
        return data


def _target_uids(answer: bytes) -> tuple[str, ...]:
    """The NFCID1 of each target of an InListPassiveTarget answer (§7.3.5)."""
    # NbTg, then per target: Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1, [ATS]
    uids: list[str] = []
    at = 1
    for _ in range(answer[0] if answer else 0):
        header = answer[at:at + 5]
        length = header[4] if len(header) == 5 else 0
        end = at + 5 + length
        if length not in iso14443.UID_LENGTHS or len(answer) < end:
            log.debug("PN532: malformed InListPassiveTarget answer %s", answer.hex())
            return ()    # a garbled answer is no card, as a corrupt frame is
        uids.append(iso14443.uid_hex(answer[at + 5:end]))
        if header[3] & SEL_RES_ISO14443_4:
            end += answer[end] if end < len(answer) else 1   # the ATS, its TL byte counted
        at = end
    return tuple(uids)


def open_pn532(path: str = "/dev/serial0", *, baudrate: int = 115200,
               timeout: float = 0.2, passive_retries: int = 1,
               opener: Callable[[], Any] | None = None) -> PN532UART:
    """A PN532 on a serial device, opened again by the same path if it goes away.

    pyserial is imported only here. ``opener`` opens the port instead of
    ``serial.Serial(path, ...)``: tests hand in their fake line.
    """
    if opener is None:
        import serial

        def opener() -> Any:
            return serial.Serial(path, baudrate, timeout=timeout)
    try:
        port = opener()
    except (OSError, termios.error) as exc:
        raise ReaderError(f"cannot open {path}: {exc}. Enable the UART (enable_uart=1), "
                          "remove the serial console and add the user to dialout") from None
    return PN532UART(port, passive_retries=passive_retries, reopen=opener)
