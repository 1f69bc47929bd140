"""The RC522 driver against a register-level fake MFRC522 and ISO 14443-3 cards.

Every test runs on both chip models of the fake: StartSend acting when written
(`FakeMFRC522`) and StartSend as a stored bit (`StrictMFRC522`).
"""
from __future__ import annotations

import re
import sys
import types

import pytest

from hardware import iso14443, rc522
from hardware.anticollision import Reply, Silence
from hardware.errors import ReaderError
from hardware.fake_card import bits_of
from hardware.fake_rc522 import CHIP_MODELS, FakeCard, FakeMFRC522, StrictMFRC522
from hardware.rc522 import RC522, open_rc522
from tests.hardware.fakes.rpi_modules import FakeSpiDev

CLASSIC = "04A22B91"
NTAG = "04112233445566"


@pytest.fixture(params=CHIP_MODELS, ids=lambda model: model.__name__)
def chip(request):
    return request.param()


class Sleeps(list):
    """The driver's sleeps, recorded, each passing on the chip's clock."""

    def __init__(self, chip):
        super().__init__()
        self.chip = chip

    def append(self, seconds):
        super().append(seconds)
        self.chip.sleep(seconds)


@pytest.fixture
def sleeps(chip):
    return Sleeps(chip)


@pytest.fixture
def reader(chip, sleeps):
    return RC522(chip, sleep=sleeps.append)


def test_reads_a_four_byte_uid(chip, reader):
    chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC


def test_reads_a_seven_byte_uid_through_cascade_level_2(chip, reader):
    card = chip.place(FakeCard(NTAG))
    assert reader.poll() == NTAG
    sent = [frame[:2] for frame in card.frames]
    assert [0x93, 0x20] in [list(f) for f in sent] and [0x95, 0x70] in [list(f) for f in sent]


def test_reads_a_ten_byte_uid(chip, reader):
    chip.place(FakeCard("0411223344556677889A"))
    assert reader.poll() == "0411223344556677889A"


def test_a_card_held_on_the_reader_answers_every_poll(chip, reader):
    card = chip.place(FakeCard(NTAG))
    assert [reader.poll() for _ in range(5)] == [NTAG] * 5
    assert card.state == "HALT"          # each cycle ends with HLTA...
    assert card.frames[0] == b"\x26"     # ...read first after REQA...
    assert card.frames.count(b"\x52") == 4   # ...then woken with WUPA, the only thing that wakes it


def test_a_halted_card_is_found_with_wupa(chip, reader):
    card = chip.place(FakeCard(CLASSIC))
    card.state = "HALT"
    assert card.receive(b"\x26", 7) is None      # REQA does not reach it
    assert reader.poll() == CLASSIC


def test_no_card_times_out_in_the_chip_without_sleeping(chip, reader, sleeps):
    reader.poll()                                # initialise
    sleeps.clear()
    before = chip.transfers
    assert reader.poll() is None
    assert sleeps == []                          # the chip's timer ended the exchange
    # VersionReg (the bus check), eight register writes, one ComIrqReg read
    assert chip.transfers - before == 10


def test_removal_and_return(chip, reader):
    card = chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    chip.remove(card)
    assert reader.poll() is None
    chip.place(card)
    assert reader.poll() == CLASSIC


@pytest.mark.parametrize("fault, errors", [("corrupt_bcc", 9), ("corrupt_crc", 3)])
def test_a_corrupted_answer_is_never_returned(chip, reader, fault, errors):
    card = chip.place(FakeCard(NTAG))
    setattr(card, fault, True)
    assert reader.poll() is None
    # A bad BCC: the ANTICOLLISION asked three times, in three walks; a bad SAK: three walks.
    assert reader.rf_errors == errors
    setattr(card, fault, False)
    assert reader.poll() == NTAG                 # the driver sent the card back to a WUPA state


def test_spi_error_is_raised_and_the_next_poll_initialises_again(chip, reader):
    chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    chip.fail_transfers = 1
    with pytest.raises(OSError):
        reader.poll()
    resets = chip.soft_resets
    assert reader.poll() == CLASSIC
    assert chip.soft_resets == resets + 1


def test_a_wedged_chip_raises_after_a_bounded_wait_and_a_reset_recovers_it(chip, reader, sleeps):
    chip.place(FakeCard(CLASSIC))
    reader.poll()
    chip.wedged = True
    sleeps.clear()
    with pytest.raises(ReaderError, match="wedged"):
        reader.poll()
    assert 0 < sum(sleeps) < 0.05
    assert reader.poll() == CLASSIC


def test_self_test_refuses_a_silent_bus(chip, reader):
    chip.version = 0x00
    with pytest.raises(ReaderError, match="VersionReg reads 0x00"):
        reader.poll()


def test_init_programs_timer_modulation_gain_and_antenna(chip, sleeps):
    chip.writes = []
    RC522(chip, gain=48, timeout_ms=5, sleep=sleeps.append).poll()
    regs = chip.regs
    assert regs[rc522.TModeReg] == 0x80 and regs[rc522.TPrescalerReg] == 0xA9
    reloads = [value for register, value in chip.writes if register == rc522.TReloadRegL]
    assert reloads == [200, 40]            # 5 ms of 25 µs ticks; the poll's REQA waits 1 ms
    assert regs[rc522.TxASKReg] == 0x40
    assert regs[rc522.RFCfgReg] == 0x78                                     # RxGain 48 dB
    assert regs[rc522.TxControlReg] & 0x03 == 0x03


def test_gain_must_be_a_datasheet_value(chip):
    with pytest.raises(ValueError, match="gain"):
        RC522(chip, gain=30)


def test_close_switches_the_antenna_off_and_closes_spi(chip, reader):
    reader.poll()
    reader.close()
    assert not chip.field_on and chip.closed


def test_a_slow_answer_is_awaited_in_millisecond_naps(chip, reader, sleeps):
    chip.place(FakeCard(CLASSIC))
    reader.poll()
    chip.answer_delay_reads = 3
    sleeps.clear()
    assert reader.poll() == CLASSIC
    assert set(sleeps) == {0.001} and len(sleeps) == 3 * 4     # WUPA, anticoll, SELECT, HLTA


def test_irq_pin_replaces_sleeping(chip, mock_factory, sleeps):
    from gpiozero import DigitalInputDevice
    irq = DigitalInputDevice(24, pull_up=True)
    pin = mock_factory.pin(24)
    chip.irq_line = lambda high: pin.drive_high() if high else pin.drive_low()
    reader = RC522(chip, irq=irq, sleep=sleeps.append)
    chip.place(FakeCard(CLASSIC))
    reader.poll()
    sleeps.clear()
    assert reader.poll() == CLASSIC
    assert sleeps == []
    assert irq.is_active                         # IRqInv: the pin is low while a request is pending
    reader.close()


def test_reset_pin_gives_a_hard_reset(chip, mock_factory):
    from gpiozero import DigitalOutputDevice
    reset = DigitalOutputDevice(25, initial_value=True)
    pin = mock_factory.pin(25)
    reader = RC522(chip, reset=reset, sleep=chip.sleep)
    chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    assert chip.soft_resets == 0
    assert [state for _, state in pin.states][-2:] == [False, True]
    reader.close()
    assert pin.state == 0                        # left in hard power-down


def test_factory_opens_spidev_lazily(chip, monkeypatch):
    spi = FakeSpiDev(chip)
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: spi))
    reader = open_rc522(0, 1)
    assert spi.opened == (0, 1) and spi.max_speed_hz == 1_000_000 and spi.mode == 0
    assert reader.poll() is None
    chip.place(FakeCard(CLASSIC))        # (its real sleeps do not pass on the chip's clock)
    assert reader.poll() == CLASSIC


def test_factory_explains_a_missing_spi_device(monkeypatch):
    class Missing:
        def open(self, bus, device):
            raise FileNotFoundError(2, "No such file or directory")
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=Missing))
    with pytest.raises(ReaderError, match="dtparam=spi=on"):
        open_rc522()


# --- the register sequence of one frame (datasheet §9.3.1.14, §10.3.1.8) -------

def frames_as_written(writes):
    """The register writes of each exchange, split where CommandReg is set to Idle."""
    frames = []
    for register, value in writes:
        if register == rc522.CommandReg and value == rc522.Command.Idle:
            frames.append([])
        if frames:
            frames[-1].append((register, value))
    return frames


def test_every_frame_frames_startsend_around_the_transceive_command(chip, reader):
    chip.place(FakeCard(NTAG))
    chip.writes = []
    assert reader.poll() == NTAG
    frames = frames_as_written(chip.writes)
    assert len(frames) == 7                      # REQA, 2 x (anticollision, SELECT), HLTA, REQA
    for frame, last_bits in zip(frames, [7, 0, 0, 0, 0, 0, 7]):
        framing = [(r, v) for r, v in frame if r in (rc522.BitFramingReg, rc522.CommandReg)]
        assert framing == [(rc522.CommandReg, rc522.Command.Idle),
                           (rc522.BitFramingReg, last_bits),               # StartSend = 0
                           (rc522.CommandReg, rc522.Command.Transceive),
                           (rc522.BitFramingReg, rc522.StartSend | last_bits),
                           (rc522.BitFramingReg, last_bits)]               # cleared at the end
    assert not chip.regs[rc522.BitFramingReg] & rc522.StartSend


class PreviousSequence(RC522):
    """The exchange as this driver wrote it before: Transceive first, then
    StartSend with TxLastBits in one write, StartSend never cleared."""

    def transceive(self, frame, last_bits=0, *, align=False, timeout_s=None):
        self._write(rc522.CommandReg, rc522.Command.Idle)
        self._write(rc522.ComIrqReg, ~rc522.Set1 & 0x7F)
        self._write(rc522.FIFOLevelReg, rc522.FlushBuffer)
        self._write(rc522.FIFODataReg, *frame)
        self._write(rc522.CommandReg, rc522.Command.Transceive)
        self._write(rc522.BitFramingReg, rc522.StartSend | last_bits)
        irq = self._wait_for_exchange()
        if not irq & (rc522.RxIRq | rc522.ErrIRq):
            raise Silence()
        answer = self._read_fifo(self._read(rc522.FIFOLevelReg) & 0x7F)
        return Reply(iso14443.bits_of(answer))


@pytest.mark.parametrize("uid", [CLASSIC, NTAG])
def test_the_previous_sequence_reads_no_card_when_startsend_is_stored(uid):
    strict, lenient = StrictMFRC522(), FakeMFRC522()
    for chip in (strict, lenient):
        chip.place(FakeCard(uid))
    # Anticollision goes out on the Transceive write, still with REQA's 7 bits.
    assert [PreviousSequence(strict, sleep=strict.sleep).poll() for _ in range(3)] == [None] * 3
    assert PreviousSequence(lenient, sleep=lenient.sleep).poll() == uid   # why it went unseen


def test_the_strict_model_sends_when_transceive_finds_startsend_set():
    chip = StrictMFRC522()
    card = chip.place(FakeCard(CLASSIC))
    chip.xfer2([rc522.TxControlReg << 1, rc522.Tx1RFEn | rc522.Tx2RFEn])
    chip.sleep(0.005)                                              # the card powers up
    chip.xfer2([rc522.BitFramingReg << 1, rc522.StartSend | 7])    # no Transceive yet: nothing
    chip.xfer2([rc522.FIFODataReg << 1, iso14443.WUPA])
    assert card.frames == []
    chip.xfer2([rc522.CommandReg << 1, rc522.Command.Transceive])
    assert card.frames == [b"\x52"] and card.state == "READY"


class WrongFraming(RC522):
    """Sends every frame with all 8 bits of its last byte, WUPA included."""

    def transceive(self, frame, last_bits=0, *, align=False, timeout_s=None):
        return super().transceive(frame, 0, timeout_s=timeout_s)


def test_a_reqa_sent_as_eight_bits_is_not_answered(chip, sleeps):
    card = chip.place(FakeCard(CLASSIC))
    assert WrongFraming(chip, sleep=sleeps.append).poll() is None
    assert card.frames == [b"\x26"] and card.state == "IDLE"


def test_a_card_ignores_a_standard_frame_sent_with_seven_last_bits():
    card = FakeCard(CLASSIC)
    assert card.receive(b"\x52", 7) == bits_of(card.atqa)
    assert card.receive(bytes([iso14443.SEL_CL1, iso14443.NVB_ANTICOLLISION]), 7) is None
    assert card.state == "IDLE"                  # noise sent the READY card back


@pytest.mark.parametrize("uid, digits", [("04a22b91", 8), ("04b1c2d3e4f5a6", 14)])
def test_uids_are_exactly_uppercase_hex_of_their_length(chip, reader, uid, digits):
    chip.place(FakeCard(uid))
    read = reader.poll()
    assert re.fullmatch(f"[0-9A-F]{{{digits}}}", read) and read == uid.upper()


@pytest.mark.parametrize("uid", [CLASSIC, NTAG])
def test_a_card_held_through_many_polls_is_reported_on_each(chip, reader, uid):
    chip.place(FakeCard(uid))
    assert [reader.poll() for _ in range(10)] == [uid] * 10


@pytest.mark.parametrize("fault, errors", [("corrupt_bcc", 9), ("corrupt_crc", 3)])
def test_a_corrupted_cl1_of_a_four_byte_uid_is_none(chip, reader, fault, errors):
    card = chip.place(FakeCard(CLASSIC))
    setattr(card, fault, True)
    assert [reader.poll() for _ in range(3)] == [None] * 3
    assert reader.rf_errors == 3 * errors
