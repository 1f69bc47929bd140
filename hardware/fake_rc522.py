"""A register-level MFRC522 with ISO/IEC 14443-3 type A cards in its field.

The tests drive the RC522 driver and the `mfrc522` package against it, and
`tabletop bench` runs both read loops on it, so it ships with the package.

Written from the NXP datasheet and the ISO state machine, independently of
`hardware.rc522` (own register map, own bitwise CRC_A), so a driver that
misreads the datasheet fails here. It is the SPI object too: `xfer2` speaks
the datasheet's SPI framing, one address byte then data, bursts included.

Modelled: FIFO and FlushBuffer, Set1 semantics of ComIrqReg and DivIrqReg,
Transceive started by StartSend with the TxLastBits in BitFramingReg at that
moment, the TAuto timer ending a silent exchange, CalcCRC, SoftReset with
PowerDown, the antenna powering cards on and off, the IRQ pin. Several cards
(`hardware.fake_card`) answer bit by bit: where they disagree the receiver
reports a collision (ErrorReg CollErr, with ParityErr for the byte it spoils)
and CollReg gives its position, counted from the first bit of the first FIFO
byte, so RxAlign's offset included (1 = that bit, 32 reads as 0); past bit 32
CollPosNotValid is set instead. Bits after the collision read as zeros unless
CollReg's ValuesAfterColl is 1 (its reset value). Received bits land from
RxAlign on; the bits below it in the first byte are ones, as nothing defines
them. Faults: failing SPI transfers, MISO stuck at 0x00 or 0xFF, a wedged chip
that stops ending exchanges until it is reset, a dead chip.

Datasheet §9.3.1.14 (BitFramingReg) and §10.3.1.8 (Transceive) read two ways on when StartSend starts sending, so there
are two chip models. `FakeMFRC522`: any write of StartSend = 1 while Transceive
is active sends. `StrictMFRC522`: StartSend is a stored bit; sending starts
when it goes from 0 to 1 while Transceive is active, or at once when
Transceive is written while it is still 1. A driver that works on both is
right whichever way a given chip behaves.

Time runs on the chip's own virtual clock (`now`, `sleep`), which the drivers'
sleeps should advance. Each SPI transfer costs `SPI_CALL_S` (a Python spidev call
on a Pi Zero 2 W, an estimate) and its bytes at `spi_hz`; each exchange costs its
frames on air at 106 kBd (a bit is 128/fc, each byte with its parity), the card's
frame delay (1172/fc), or, when nobody answers, the timer as TModeReg,
TPrescalerReg and TReloadReg set it (datasheet §8.5: (2 TPrescaler + 1)
(TReload + 1) / 13.56 MHz). An exchange's end is visible at once and its time is
charged to the clock then: a driver never waits less than the model says.

The field, by ISO/IEC 14443-3: a card reached by the field again after it was
off for at least `FIELD_RESET_S` starts over in IDLE, and answers only after
5 ms of unmodulated field (`fake_card`); a shorter gap leaves the cards as they
were. SoftReset switches the field off.

The receiver (datasheet §9.3.3.6 RxThresholdReg): where cards disagree, a
collision is flagged only when the weaker card's half-bit reaches CollLevel of
the stronger one's, taken here as CollLevel/8 of its amplitude (the reset value
4 is one half; the datasheet gives no scale). A card below that is captured:
the receiver hears the stronger cards alone, with no error. `noise` is the
share of answers that arrive corrupted (a seeded `rng`): half of them flip one
bit (a parity error in ErrorReg), half flip two bits of one byte, which parity
cannot see and only BCC or CRC_A catch.
"""
from __future__ import annotations

import errno
import random
from collections.abc import Callable

from hardware.fake_card import POWER_UP_S, Bits, FakeCard, bytes_of, crc_a

__all__ = ["CHIP_MODELS", "FakeCard", "FakeMFRC522", "StrictMFRC522", "crc_a"]

# Registers (datasheet §9.2)
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
TX_CONTROL, CRC_RESULT_H, CRC_RESULT_L, RF_CFG = 0x14, 0x21, 0x22, 0x26
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
RX_THRESHOLD = 0x18

RESET_VALUES = {COMMAND: 0x20, COM_IEN: 0x80, COM_IRQ: 0x14, CONTROL: 0x10, COLL: 0x80,
                0x11: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, RX_THRESHOLD: 0x84, 0x19: 0x4D,
                CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x24: 0x26, RF_CFG: 0x48, 0x27: 0x88}

IDLE_CMD, CALC_CRC, TRANSCEIVE, SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
START_SEND, TX_LAST_BITS = 0x80, 0x07
POWER_DOWN, TX_IRQ, RX_IRQ, ERR_IRQ, TIMER_IRQ, CRC_IRQ, COLL_ERR = 0x10, 0x40, 0x20, 0x02, 0x01, 0x04, 0x08
PARITY_ERR = 0x02
RX_ALIGN = 0x70                                     # BitFramingReg bits 6..4
VALUES_AFTER_COLL, COLL_POS_NOT_VALID = 0x80, 0x20    # CollReg
COLL_LEVEL = 0x07                                   # RxThresholdReg bits 2..0

FC_HZ = 13.56e6
BIT_S = 128 / FC_HZ                  # one bit on air at 106 kBd
FRAME_DELAY_S = 1172 / FC_HZ         # a card's answer starts this long after the reader's frame
SPI_CALL_S = 120e-6                  # one spidev transfer on a Pi Zero 2 W, before its bytes
FIELD_RESET_S = 0.005                # field off this long: the cards in it start over


class FakeMFRC522:
    """The chip and its SPI bus in one object: give it to the driver as `spi`."""

    def __init__(self, version: int = 0x92, *, noise: float = 0.0, seed: int = 0):
        self.version = version
        self.cards: list[FakeCard] = []
        self.now = 0.0                   # the virtual clock, in seconds
        self.spi_hz = 1_000_000
        self.noise = noise               # share of answers corrupted on the way
        self.rng = random.Random(seed)
        self._field_off_at = float("-inf")
        self.transfers = 0
        self.fail_transfers = 0          # the next N transfers raise EIO
        self.miso_stuck: int | None = None   # 0x00 or 0xFF: every byte read is that
        self.unplaced_collisions = False     # cards out of step: CollPosNotValid on every collision
        self.wedged = False              # exchanges never end, until a reset
        self.reset_reads = 1             # CommandReg reads that still show PowerDown
        self.answer_delay_reads = 0      # ComIrqReg reads before an exchange ends
        self.irq_line: Callable[[bool], None] | None = None
        self.closed = False
        self.soft_resets = 0
        self.writes: list[tuple[int, int]] | None = None   # a list records every register write
        self._reset_registers()

    # --- the field --------------------------------------------------------------

    def place(self, card: FakeCard, *, settled: bool = True) -> FakeCard:
        """Lay a card in the field: one resting there for a while (`settled`), or one just
        arriving, which needs its 5 ms of field first. With the field off it waits for it."""
        if not self.field_on:
            card.power_up(float("inf"))
        else:
            card.power_up(float("-inf") if settled else self.now + POWER_UP_S)
        self.cards.append(card)
        return card

    def sleep(self, seconds: float) -> None:
        """The drivers' sleep: time passes on the virtual clock."""
        self.now += max(0.0, seconds)

    def clock(self) -> float:
        return self.now

    def remove(self, card: FakeCard) -> None:
        self.cards.remove(card)

    @property
    def field_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03)

    # --- SPI (datasheet §8.1.2) -------------------------------------------------

    def xfer2(self, data: list[int]) -> list[int]:
        self.transfers += 1
        self.now += SPI_CALL_S + 8 * len(data) / self.spi_hz
        if self.fail_transfers:
            self.fail_transfers -= 1
            raise OSError(errno.EIO, "SPI transfer failed")
        if data[0] & 0x80:
            answer = [0] + [self._read(byte >> 1 & 0x3F) for byte in data[:-1]]
        else:
            for value in data[1:]:
                self._write(data[0] >> 1 & 0x3F, value)
            answer = [0] * len(data)
        # A broken MISO line: the chip works, the host reads a constant.
        return answer if self.miso_stuck is None else [self.miso_stuck] * len(data)

    def close(self) -> None:
        self.closed = True

    # --- registers --------------------------------------------------------------

    def _reset_registers(self) -> None:
        self.regs = [0] * 64
        for register, value in RESET_VALUES.items():
            self.regs[register] = value
        self.fifo: list[int] = []
        self._pending: tuple[list[int], int] | None = None
        self._pending_reads = 0
        self.wedged = False
        self._powering_up = self.reset_reads
        if self._field_off_at == float("inf"):
            self._field_off_at = self.now      # a reset switches the field off

    def _read(self, register: int) -> int:
        if register == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if register == FIFO_LEVEL:
            return len(self.fifo)
        if register == VERSION:
            return self.version
        if register == COM_IRQ and self._pending:
            self._pending_reads -= 1
            if self._pending_reads < 0:
                self._end_exchange()
        if register == COMMAND and self._powering_up:
            self._powering_up -= 1
            return self.regs[COMMAND] | POWER_DOWN
        return self.regs[register]

    def _write(self, register: int, value: int) -> None:
        if self.writes is not None:
            self.writes.append((register, value))
        if register in (COM_IRQ, DIV_IRQ):
            marked = value & 0x7F
            self.regs[register] = self.regs[register] | marked if value & 0x80 else self.regs[register] & ~marked
            self._update_irq_line()
        elif register == FIFO_DATA:
            self.fifo.append(value)
        elif register == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif register == COMMAND:
            self._command(value)
        elif register == TX_CONTROL:
            was_on = self.field_on
            self.regs[TX_CONTROL] = value
            if was_on and not self.field_on:
                self._field_off_at = self.now
            elif self.field_on and not was_on:
                self._field_back()
        elif register == BIT_FRAMING:
            self._write_bit_framing(value)
        elif register == COLL:           # only ValuesAfterColl is writable
            self.regs[COLL] = self.regs[COLL] & ~VALUES_AFTER_COLL | value & VALUES_AFTER_COLL
        else:
            self.regs[register] = value

    def _field_back(self) -> None:
        """The field is on again: after a long enough gap every card starts over."""
        reset = self.now - self._field_off_at >= FIELD_RESET_S
        for card in self.cards:
            if reset or card.ready_at == float("inf"):    # (or laid there while it was off)
                card.power_up(self.now + POWER_UP_S)
        self._field_off_at = float("inf")

    @property
    def _transceive_active(self) -> bool:
        return self.regs[COMMAND] & 0x0F == TRANSCEIVE

    def _write_bit_framing(self, value: int) -> None:
        """This model: every write of StartSend = 1 during Transceive sends."""
        self.regs[BIT_FRAMING] = value
        if value & START_SEND and self._transceive_active:
            self._transceive()

    def _transceive_written(self) -> None:
        """This model: Transceive waits for StartSend to be written."""

    def _command(self, value: int) -> None:
        command = value & 0x0F
        if command == SOFT_RESET:
            self.soft_resets += 1
            self._reset_registers()
            return
        if command not in (IDLE_CMD, CALC_CRC, TRANSCEIVE):
            raise NotImplementedError(f"fake MFRC522: command 0x{command:X}")
        self.regs[COMMAND] = value & 0x3F
        if command == CALC_CRC:
            low, high = crc_a(bytes(self.fifo))
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = low, high
            self.regs[DIV_IRQ] |= CRC_IRQ
        elif command == TRANSCEIVE:
            self._transceive_written()

    # --- the RF exchange --------------------------------------------------------

    def _transceive(self) -> None:
        framing = self.regs[BIT_FRAMING]
        frame, last_bits = bytes(self.fifo), framing & TX_LAST_BITS
        self.fifo.clear()
        self.regs[ERROR] = 0
        self.regs[COM_IRQ] |= TX_IRQ
        if self.wedged:
            return
        sent = len(frame) * 8 - (8 - last_bits if last_bits else 0)
        self.now += BIT_S * (sent + sent // 8 + 2)            # start, data, parities, end
        heard = [(card.coupling, card.receive(frame, last_bits, self.now))
                 for card in self.cards] if self.field_on else []
        answers = self._captured([(level, bits) for level, bits in heard if bits is not None])
        self._pending = self._outcome(answers, (framing & RX_ALIGN) >> 4)
        if answers:
            longest = max(len(bits) for bits in answers)
            self.now += FRAME_DELAY_S + BIT_S * (longest + longest // 8 + 2)
        else:
            self.now += self._timer_s()
        self._pending_reads = self.answer_delay_reads
        if not self.answer_delay_reads:
            self._end_exchange()

    def _captured(self, answers: list[tuple[float, Bits]]) -> list[Bits]:
        """The answers the receiver makes out: a card weaker than CollLevel of the strongest
        is lost under it (datasheet §9.3.3.6)."""
        if not answers:
            return []
        strongest = max(level for level, _ in answers)
        floor = strongest * (self.regs[RX_THRESHOLD] & COLL_LEVEL) / 8
        return [bits for level, bits in answers if level >= floor]

    def _timer_s(self) -> float:
        """How long the timer runs before TimerIRq (datasheet §8.5), 0 when it is not armed."""
        if not self.regs[T_MODE] & 0x80:
            return 0.0
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        reload = self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / FC_HZ

    def _corrupted(self, bits: Bits) -> tuple[Bits, int]:
        """An answer as noise may leave it, and the ErrorReg bits the receiver sets."""
        if not self.noise or self.rng.random() >= self.noise:
            return bits, 0
        flipped = list(bits)
        at = self.rng.randrange(len(bits))
        flipped[at] ^= 1
        if len(bits) < 8 or self.rng.random() < 0.5:
            return tuple(flipped), PARITY_ERR
        other = at // 8 * 8 + (at % 8 + 1 + self.rng.randrange(7)) % 8     # same byte: parity holds
        if other < len(bits):
            flipped[other] ^= 1
            return tuple(flipped), 0
        return tuple(flipped), PARITY_ERR

    def _outcome(self, answers: list[Bits], align: int) -> tuple[list[int], int]:
        """What the FIFO and ComIrqReg hold once the exchange ends; sets ErrorReg,
        CollReg and ControlReg's RxLastBits as the receiver leaves them."""
        self.regs[COLL] = self.regs[COLL] & VALUES_AFTER_COLL | COLL_POS_NOT_VALID
        if not answers:
            timer_armed = self.regs[T_MODE] & 0x80 and (self.regs[T_RELOAD_H] or self.regs[T_RELOAD_L])
            return [], TIMER_IRQ if timer_armed else 0
        bits, collision = self._merge(answers)
        bits, noise_error = self._corrupted(bits)
        self.regs[ERROR] |= noise_error
        if collision is not None:
            # The byte holding the collided bit fails its parity too.
            self.regs[ERROR] |= COLL_ERR | PARITY_ERR
            position = align + collision + 1            # datasheet §9.3.1.15: 1 is the first bit
            if position <= 32 and not self.unplaced_collisions:   # ...and 32 reads as 0
                self.regs[COLL] = self.regs[COLL] & VALUES_AFTER_COLL | position % 32
        # RxAlign: the first bit received lands at that position of the first byte;
        # what the bits below it hold is not specified, so here they are ones.
        stored = (1,) * align + bits
        data = list(bytes_of(stored))
        self.regs[CONTROL] = self.regs[CONTROL] & ~0x07 | len(stored) % 8
        return data, RX_IRQ | (ERR_IRQ if self.regs[ERROR] else 0)

    def _merge(self, answers: list[Bits]) -> tuple[Bits, int | None]:
        """The bits the receiver makes of several cards answering at once, and the index of
        the first bit where they disagree. After it the bits are ORed, or cleared when
        CollReg's ValuesAfterColl is 0."""
        merged: list[int] = []
        collision = None
        for i in range(max(len(answer) for answer in answers)):
            values = {answer[i] for answer in answers if i < len(answer)}
            if len(values) > 1 and collision is None:
                collision = i
            after = collision is not None and i > collision
            merged.append(0 if after and not self.regs[COLL] & VALUES_AFTER_COLL else max(values))
        return tuple(merged), collision

    def _end_exchange(self) -> None:
        assert self._pending is not None
        self.fifo, irq = self._pending
        self._pending = None
        self.regs[COM_IRQ] |= irq
        self._update_irq_line()

    def _update_irq_line(self) -> None:
        if self.irq_line is None:
            return
        pending = (self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F
                   or self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x14)
        inverted = self.regs[COM_IEN] & 0x80
        self.irq_line(not pending if inverted else bool(pending))


class StrictMFRC522(FakeMFRC522):
    """StartSend as a stored bit (the other reading of datasheet §9.3.1.14).

    Sending starts on StartSend going 0 -> 1 while Transceive is active, or at
    once when Transceive is written while StartSend is still 1; either way with
    the TxLastBits then in BitFramingReg. A driver that leaves StartSend set
    sends its next frame the moment it writes Transceive, with the previous
    frame's TxLastBits, and the card does not answer.
    """

    def _write_bit_framing(self, value: int) -> None:
        rising = value & START_SEND and not self.regs[BIT_FRAMING] & START_SEND
        self.regs[BIT_FRAMING] = value
        if rising and self._transceive_active:
            self._transceive()

    def _transceive_written(self) -> None:
        if self.regs[BIT_FRAMING] & START_SEND:
            self._transceive()


CHIP_MODELS = (FakeMFRC522, StrictMFRC522)
