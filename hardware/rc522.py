"""MFRC522 ("RC522") contactless reader on SPI.

Written from the NXP MFRC522 datasheet (rev. 3.9) and ISO/IEC 14443-3. One
`poll_all()` is one detection cycle over every card in the field
(`hardware.anticollision`: the cards read before confirmed by WUPA and SELECT,
the others found by REQA and anticollision, each halted with HLTA); `poll()`
gives the first card of it. The chip's own timer ends every exchange (1 ms for
HLTA, `timeout_ms` for the others), so an empty field costs about a dozen SPI
transfers and no sleep, never a spinning loop. The antenna's field gets 5 ms
before the first frame after it comes on, at start and after a field reset:
ISO/IEC 14443-3 gives a card that long to power up before it must answer. SPI errors, a chip that stops
answering and a bus that reads a constant (MISO stuck at 0x00 or 0xFF: the
version register stops reading what it read at start) raise `ReaderError` (an
OSError); the next poll initialises the chip again. A card that answers badly
(moving, a corrupted frame) is not an I/O error: the poll leaves it out and the
presence hysteresis absorbs it.
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

from hardware import iso14443
from hardware.anticollision import Inventory, Reply, RfError, Silence
from hardware.errors import ReaderError
from hardware.iso14443 import FieldScan

log = logging.getLogger(__name__)

# Registers (datasheet §9.2)
CommandReg = 0x01
ComIEnReg = 0x02
DivIEnReg = 0x03
ComIrqReg = 0x04
ErrorReg = 0x06
FIFODataReg = 0x09
FIFOLevelReg = 0x0A
ControlReg = 0x0C
BitFramingReg = 0x0D
CollReg = 0x0E
ModeReg = 0x11
TxModeReg = 0x12
RxModeReg = 0x13
TxControlReg = 0x14
TxASKReg = 0x15
RFCfgReg = 0x26
TModeReg = 0x2A
TPrescalerReg = 0x2B
TReloadRegH = 0x2C
TReloadRegL = 0x2D
VersionReg = 0x37


class Command:
    """Command set (datasheet §10.3), written to CommandReg."""
    Idle = 0x00
    Transceive = 0x0C
    SoftReset = 0x0F


# Register bits
PowerDown = 0x10                                   # CommandReg
IRqInv = 0x80                                      # ComIEnReg: IRQ pin low when pending
IRQPushPull = 0x80                                 # DivIEnReg
Set1 = 0x80                                        # ComIrqReg: 1 sets, 0 clears the marked bits
RxIRq, IdleIRq, ErrIRq, TimerIRq = 0x20, 0x10, 0x02, 0x01
ALL_COM_IRQS = 0x7F                                # ComIrqReg bits 6..0, every request
FlushBuffer = 0x80                                 # FIFOLevelReg: empties the FIFO
FIFOLevel = 0x7F                                   # FIFOLevelReg: bytes held
RxLastBits = 0x07                                  # ControlReg: valid bits of the last byte
BufferOvfl, CollErr, ParityErr, ProtocolErr = 0x10, 0x08, 0x02, 0x01
Tx1RFEn, Tx2RFEn = 0x01, 0x02                      # TxControlReg: antenna drivers
Force100ASK = 0x40                                 # TxASKReg
TAuto = 0x80                                       # TModeReg
ValuesAfterColl, CollPosNotValid, CollPos = 0x80, 0x20, 0x1F   # CollReg

RxGainMask = 0x70                                  # RFCfgReg bits 6..4

# BitFramingReg (§9.3.1.14) and the Transceive command (§10.3.1.8). TxLastBits is how many bits of the last byte go on
# air (0 = all 8). StartSend starts the transmission of a Transceive; chips
# differ on whether it acts when written or is a stored bit that Transceive
# also acts on, so every frame writes TxLastBits with StartSend = 0 before
# Transceive, sets StartSend after it and clears it when the exchange ends.
StartSend = 0x80
TxLastBits = 0x07
# RxAlign (bits 6..4): where the first bit received goes in the first FIFO byte. An
# ANTICOLLISION frame ending in a partial byte is answered from the next bit on, so
# RxAlign is that frame's TxLastBits and the answer completes the byte.
RX_ALIGN_SHIFT = 4

# TxModeReg / RxModeReg (§9.3.2.3, §9.3.2.4): TxCRCEn and RxCRCEn (bit 7) clear,
# because CRC_A is added and checked on the host; TxSpeed / RxSpeed (bits 6..4)
# 000 = 106 kBd, the only ISO 14443A rate a card must support.
TxCRCEn = RxCRCEn = 0x80
SPEED_106K = 0b000 << 4

# ModeReg (§9.3.2.2), reset value 0x3F. MSBFirst (bit 7) clear: CRC coprocessor
# LSB first, as CRC_A is. TxWaitRF (bit 5): the transmitter starts only once
# the RF field is up, so the first WUPA after the antenna comes on is not lost.
# PolMFin (bit 3): MFIN active high (MFIN is not wired). CRCPreset (bits 1..0)
# 01 = 6363h, CRC_A's preset. Reserved bits 4 and 2 stay at their reset 1.
TxWaitRF, PolMFin, CRCPreset6363 = 0x20, 0x08, 0b01
MODE_RESERVED = 0x14
MODE = TxWaitRF | PolMFin | CRCPreset6363 | MODE_RESERVED          # 0x3D

# SPI address byte (§8.1.2.3): bit 7 is 1 to read, bits 6..1 the register, bit 0 zero.
SPI_READ = 0x80
SPI_ADDRESS = 0x7E

EXCHANGE_DONE = RxIRq | IdleIRq | ErrIRq | TimerIRq

# RxGain codes per dB (datasheet Table 98); 18 and 23 dB each have two codes.
RX_GAIN_DB = {18: 0b000, 23: 0b001, 33: 0b100, 38: 0b101, 43: 0b110, 48: 0b111}

# Timer: 13.56 MHz / (2 * 0xA9 + 1) = 40 kHz, one tick per 25 µs.
TIMER_PRESCALER = 0x0A9
TIMER_TICK_S = 25e-6

POWER_UP_S = 0.005       # unmodulated field a card may need before it answers (ISO/IEC 14443-3)
FIELD_OFF_S = 0.006      # field off longer than a card's 5 ms reset: every card starts over

KNOWN_VERSIONS = {0x88: "FM17522", 0x90: "v0.0", 0x91: "v1.0", 0x92: "v2.0", 0xB2: "FM17522", 0x12: "clone"}


class RC522:
    """One MFRC522 behind an SPI object with spidev's ``xfer2(list) -> list``.

    ``reset`` (NRSTPD) is an optional gpiozero DigitalOutputDevice and ``irq``
    an optional DigitalInputDevice with ``pull_up=True``; the reader owns them
    and the SPI object, and `close()` releases all three. ``gain`` is the
    receiver gain in dB. ``timeout_ms`` is how long the chip waits for a card
    to answer; a card needs well under a millisecond, HLTA one millisecond of
    silence.
    """

    def __init__(self, spi: Any, *, reset: Any = None, irq: Any = None, gain: int = 33,
                 timeout_ms: float = 5.0, sleep: Callable[[float], None] = time.sleep):
        if gain not in RX_GAIN_DB:
            raise ValueError(f"RC522 gain must be one of {sorted(RX_GAIN_DB)} dB, not {gain}")
        self._spi, self._reset_pin, self._irq_pin = spi, reset, irq
        self._gain_code = RX_GAIN_DB[gain]
        self._reload = self._timer_reload(timeout_ms / 1000)
        self._reload_set = -1            # TReloadReg as last written
        self._sleep = sleep
        self._check_interval = 0.001
        # Twice the chip's own timeout: past that the chip, not the card, is at fault.
        self._irq_checks = math.ceil(2 * timeout_ms / 1000 / self._check_interval) + 2
        self._ready = False
        self._inventory = Inventory(self)
        self.version: int | None = None

    @property
    def rf_errors(self) -> int:
        """Answers lost or garbled since start: a card moving, or a noisy field."""
        return self._inventory.rf_errors

    @property
    def field_resets(self) -> int:
        """Polls since start that reset the field to find a card read before."""
        return self._inventory.field_resets

    def poll_all(self) -> FieldScan:
        """One detection cycle: the UIDs of every card in the field."""
        try:
            if self._ready:
                self._check_bus()
            else:
                self._init()
            scan = self._inventory.scan()
            if scan.unresolved:
                self._check_bus()      # a bus gone bad mid-poll looks like a collision
            return scan
        except OSError:
            self._ready = False
            raise

    def poll(self) -> str | None:
        """The first card of one detection cycle, or None."""
        uids = self.poll_all().uids
        return uids[0] if uids else None

    def close(self) -> None:
        """Antenna off, chip held in power-down, pins and SPI released."""
        try:
            self._antenna(False)
        except OSError as exc:
            log.warning("RC522: could not switch the antenna off: %s", exc)
        if self._reset_pin is not None:
            self._reset_pin.off()        # hard power-down: the chip draws almost nothing
            self._reset_pin.close()
        if self._irq_pin is not None:
            self._irq_pin.close()
        if hasattr(self._spi, "close"):
            self._spi.close()

    # --- chip set-up (datasheet §8.8 reset, §9.3 registers) ---------------------

    def _init(self) -> None:
        self._reset()
        self._self_test()
        # 106 kBd ISO 14443A framing with no hardware CRC: CRC_A is checked on the
        # host, which costs no SPI transfers.
        self._write(TxModeReg, SPEED_106K)     # TxCRCEn clear
        self._write(RxModeReg, SPEED_106K)     # RxCRCEn clear
        # TAuto: the timer starts when transmission ends and stops when a card
        # answers, so an empty field ends in TimerIRq without host timing.
        self._write(TModeReg, TAuto | TIMER_PRESCALER >> 8)
        self._write(TPrescalerReg, TIMER_PRESCALER & 0xFF)
        self._reload_set = -1
        self._set_timer(self._reload)
        self._write(TxASKReg, Force100ASK)   # type A needs 100 % ASK modulation
        self._write(ModeReg, MODE)
        # ValuesAfterColl clear: bits after a collision read as zeros (datasheet §9.3.1.15).
        self._write(CollReg, 0)
        self._write(RFCfgReg, self._read(RFCfgReg) & ~RxGainMask | self._gain_code << 4)
        if self._irq_pin is not None:
            self._write(ComIEnReg, IRqInv | RxIRq | ErrIRq | TimerIRq)
            self._write(DivIEnReg, IRQPushPull)
        self._antenna(True)
        self._sleep(POWER_UP_S)
        self._ready = True

    def _antenna(self, on: bool) -> None:
        control = self._read(TxControlReg)
        self._write(TxControlReg, control | Tx1RFEn | Tx2RFEn if on else control & ~(Tx1RFEn | Tx2RFEn))

    def reset_field(self) -> None:
        """Every card in the field back to IDLE: the field off, on, and the cards' power-up."""
        self._antenna(False)
        self._sleep(FIELD_OFF_S)
        self._antenna(True)
        self._sleep(POWER_UP_S)

    @staticmethod
    def _timer_reload(seconds: float) -> int:
        return max(1, round(seconds / TIMER_TICK_S))

    def _set_timer(self, reload: int) -> None:
        """TReloadReg for the next exchange, writing only the bytes that change."""
        if reload >> 8 != self._reload_set >> 8:
            self._write(TReloadRegH, reload >> 8)
        if reload & 0xFF != self._reload_set & 0xFF or self._reload_set < 0:
            self._write(TReloadRegL, reload & 0xFF)
        self._reload_set = reload

    def _reset(self) -> None:
        if self._reset_pin is not None:
            # A rising edge on NRSTPD is a hard reset; a wedged chip needs it.
            self._reset_pin.off()
            self._sleep(0.001)
            self._reset_pin.on()
        else:
            self._write(CommandReg, Command.SoftReset)
        # The oscillator restarts; PowerDown clears once the chip is ready.
        for _ in range(10):
            self._sleep(0.005)
            if not self._read(CommandReg) & PowerDown:
                return
        raise ReaderError("RC522 did not come out of reset: check its 3.3 V supply, RST and "
                          "MISO wiring")

    def _self_test(self) -> None:
        version = self._read(VersionReg)
        if version in (0x00, 0xFF):
            raise ReaderError(f"no RC522 answers on SPI (VersionReg reads 0x{version:02X}): "
                              "check the wiring and that SPI is enabled (dtparam=spi=on)")
        if version not in KNOWN_VERSIONS:
            log.warning("RC522: unknown VersionReg 0x%02X; trying it anyway", version)
        self.version = version

    def _check_bus(self) -> None:
        # One SPI read per poll: with MISO stuck every register reads the same, and
        # an all-0xFF ComIrqReg and ErrorReg would look like a field of colliding cards.
        version = self._read(VersionReg)
        if version != self.version:
            raise ReaderError(f"RC522 VersionReg reads 0x{version:02X}, not 0x{self.version:02X}: "
                              "check the SPI wiring (MISO) and the reader's supply")

    # --- one exchange with the cards (the anticollision Link) -------------------

    def transceive(self, frame: bytes, last_bits: int = 0, *, align: bool = False,
                   timeout_s: float | None = None) -> Reply:
        """Send a frame and return what came back; raises Silence when nothing did."""
        rx_align = last_bits if align else 0
        self._set_timer(self._reload if timeout_s is None else self._timer_reload(timeout_s))
        self._start_transceive(frame, last_bits, rx_align)
        irq = self._wait_for_exchange()
        # The exchange is over: StartSend back to 0, so no later Transceive can
        # find it still set and send at once.
        self._write(BitFramingReg, rx_align << RX_ALIGN_SHIFT | last_bits)
        if not irq & (RxIRq | ErrIRq):
            raise Silence()
        # ErrIRq is set whenever an ErrorReg bit is: a clean answer needs no read of it.
        error = self._read(ErrorReg) if irq & ErrIRq else 0
        collided = bool(error & CollErr)
        # A collision spoils the parity of its byte too: only the other errors count then.
        if error & (BufferOvfl | ProtocolErr) or error & ParityErr and not collided:
            raise RfError(f"ErrorReg 0x{error:02X}")
        collision = self._collision(rx_align) if collided else None
        data = self._read_fifo(self._read(FIFOLevelReg) & FIFOLevel)
        valid = len(data) * 8 - (-(self._read(ControlReg) & RxLastBits) % 8)
        return Reply(iso14443.bits_of(data)[rx_align:valid], collided, collision)

    def _collision(self, rx_align: int) -> int | None:
        """The index, among the bits received, of the first collided bit.

        CollPos counts from the first bit of the first FIFO byte, RxAlign's
        offset included: 1 is that bit, 0 stands for 32. CollPosNotValid: the
        collision lies past bit 32, where no UID bit is.
        """
        coll = self._read(CollReg)
        if coll & CollPosNotValid:
            return None
        position = (coll & CollPos or 32) - 1 - rx_align
        return position if position >= 0 else None

    def _start_transceive(self, frame: bytes, last_bits: int, rx_align: int = 0) -> None:
        """Start the Transceive command (§10.3.1.8) with this frame's BitFramingReg."""
        self._write(CommandReg, Command.Idle)           # stop whatever ran before
        self._write(ComIrqReg, ~Set1 & ALL_COM_IRQS)    # clear every interrupt request
        self._write(FIFOLevelReg, FlushBuffer)
        self._write(FIFODataReg, *frame)
        # This frame's TxLastBits with StartSend = 0: a chip that keeps StartSend
        # would otherwise start on the Transceive write with stale framing.
        framing = rx_align << RX_ALIGN_SHIFT | last_bits & TxLastBits
        self._write(BitFramingReg, framing)
        self._write(CommandReg, Command.Transceive)
        self._write(BitFramingReg, StartSend | framing)

    def _wait_for_exchange(self) -> int:
        for _ in range(self._irq_checks):
            irq = self._read(ComIrqReg)
            if irq & EXCHANGE_DONE:
                return irq
            if self._irq_pin is not None:
                self._irq_pin.wait_for_active(timeout=self._check_interval)
            else:
                self._sleep(self._check_interval)
        raise ReaderError("RC522 never ended an exchange, not even by its timer: chip wedged")

    # --- SPI framing (datasheet §8.1.2): address byte, then data ---------------

    def _write(self, register: int, *values: int) -> None:
        self._spi.xfer2([register << 1 & SPI_ADDRESS, *values])

    def _read(self, register: int) -> int:
        return self._spi.xfer2([SPI_READ | register << 1 & SPI_ADDRESS, 0])[1]

    def _read_fifo(self, count: int) -> bytes:
        if count == 0:
            return b""
        address = SPI_READ | FIFODataReg << 1 & SPI_ADDRESS
        return bytes(self._spi.xfer2([address] * count + [0])[1:])


def open_rc522(bus: int = 0, device: int = 0, *, reset_pin: int | None = None,
               irq_pin: int | None = None, gain: int = 33, speed_hz: int = 1_000_000,
               pin_factory: Any = None) -> RC522:
    """An RC522 on /dev/spidev<bus>.<device>, with optional BCM reset and IRQ pins."""
    try:
        import spidev
    except ModuleNotFoundError:
        raise ReaderError("the RC522 needs spidev: pip install 'tabletop-companion[pi]'") from None
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except FileNotFoundError:
        raise ReaderError(f"/dev/spidev{bus}.{device} is missing: enable SPI "
                          "(dtparam=spi=on in /boot/firmware/config.txt) and reboot") from None
    except PermissionError:
        raise ReaderError(f"no permission on /dev/spidev{bus}.{device}: "
                          "add the service user to the spi group") from None
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    reset = irq = None
    if reset_pin is not None or irq_pin is not None:
        from gpiozero import (
            DigitalInputDevice,
            DigitalOutputDevice,
        )
        if reset_pin is not None:
            reset = DigitalOutputDevice(reset_pin, initial_value=True, pin_factory=pin_factory)
        if irq_pin is not None:
            irq = DigitalInputDevice(irq_pin, pull_up=True, pin_factory=pin_factory)
    return RC522(spi, reset=reset, irq=irq, gain=gain)
