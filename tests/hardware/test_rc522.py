"""The RC522 driver against a register-level fake MFRC522 and ISO 14443-3 cards."""
from __future__ import annotations

import sys
import types

import pytest

from hardware import rc522
from hardware.errors import ReaderError
from hardware.fake_rc522 import FakeCard, FakeMFRC522
from hardware.rc522 import RC522, open_rc522
from tests.hardware.fakes.rpi_modules import FakeSpiDev

CLASSIC = "04A22B91"
NTAG = "04112233445566"


@pytest.fixture
def chip():
    return FakeMFRC522()


@pytest.fixture
def sleeps():
    return []


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
    assert card.frames[0] == b"\x52"     # ...and starts with WUPA, which wakes it


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
    assert chip.transfers - before == 9          # eight register writes, one ComIrqReg read


def test_removal_and_return(chip, reader):
    card = chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    chip.remove(card)
    assert reader.poll() is None
    chip.place(card)
    assert reader.poll() == CLASSIC


@pytest.mark.parametrize("fault", ["corrupt_bcc", "corrupt_crc"])
def test_a_corrupted_answer_is_never_returned(chip, reader, fault):
    card = chip.place(FakeCard(NTAG))
    setattr(card, fault, True)
    assert reader.poll() is None
    assert reader.rf_errors == 1
    setattr(card, fault, False)
    assert reader.poll() == NTAG                 # the driver sent the card back to a WUPA state


def test_two_cards_collide_and_neither_is_a_tap(chip, reader):
    chip.place(FakeCard("04A22B91"))
    chip.place(FakeCard("04A22B92"))
    assert reader.poll() is None
    assert reader.rf_errors == 1


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
    RC522(chip, gain=48, timeout_ms=5, sleep=sleeps.append).poll()
    regs = chip.regs
    assert regs[rc522.TModeReg] == 0x80 and regs[rc522.TPrescalerReg] == 0xA9
    assert regs[rc522.TReloadRegH] << 8 | regs[rc522.TReloadRegL] == 200   # 5 ms of 25 µs ticks
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
    reader = RC522(chip, reset=reset, sleep=lambda s: None)
    chip.place(FakeCard(CLASSIC))
    assert reader.poll() == CLASSIC
    assert chip.soft_resets == 0
    assert [state for _, state in pin.states][-2:] == [False, True]
    reader.close()
    assert pin.state == 0                        # left in hard power-down


def test_factory_opens_spidev_lazily(chip, monkeypatch):
    spi = FakeSpiDev(chip)
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: spi))
    chip.place(FakeCard(CLASSIC))
    reader = open_rc522(0, 1)
    assert spi.opened == (0, 1) and spi.max_speed_hz == 1_000_000 and spi.mode == 0
    assert reader.poll() == CLASSIC


def test_factory_explains_a_missing_spi_device(monkeypatch):
    class Missing:
        def open(self, bus, device):
            raise FileNotFoundError(2, "No such file or directory")
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=Missing))
    with pytest.raises(ReaderError, match="dtparam=spi=on"):
        open_rc522()
