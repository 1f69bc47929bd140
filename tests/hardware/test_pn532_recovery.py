"""The PN532 reading two targets, coming back from a power loss and from a USB-serial
adapter pulled out and plugged in again, on the fake chip behind an in-thread line."""
from __future__ import annotations

import logging

import pytest

from hardware.errors import ReaderError
from hardware.events import Placed, ReaderBack, ReaderOffline
from hardware.iso14443 import FieldScan
from hardware.pn532 import PN532UART, open_pn532
from hardware.reader_loop import ReaderLoop
from tests.hardware.fakes.pn532_device import FakePN532, SerialLine, UsbAdapter

CLASSIC = bytes.fromhex("04A22B91")
NTAG = bytes.fromhex("04112233445566")
DESFIRE = bytes.fromhex("04C0FFEE123456")
ATS = bytes.fromhex("067577810280")             # TL = 6, the length byte counted


@pytest.fixture
def chip():
    return FakePN532()


@pytest.fixture
def adapter(chip):
    return UsbAdapter(chip)


@pytest.fixture
def reader(adapter):
    return open_pn532("/dev/ttyUSB0", opener=adapter.open)


def test_two_targets_are_both_reported(chip, reader):
    chip.targets = [(CLASSIC, b""), (NTAG, b"")]
    assert reader.poll_all() == FieldScan((CLASSIC.hex().upper(), NTAG.hex().upper()))


def test_the_second_target_is_found_past_the_first_ones_ats(chip, reader):
    chip.targets = [(DESFIRE, ATS), (CLASSIC, b"")]
    assert reader.poll_all().uids == (DESFIRE.hex().upper(), CLASSIC.hex().upper())


def test_a_third_card_is_beyond_what_the_pn532_lists_and_nothing_is_misread(chip, reader):
    chip.targets = [(CLASSIC, b""), (NTAG, b""), (DESFIRE, ATS)]
    assert reader.poll_all().uids == (CLASSIC.hex().upper(), NTAG.hex().upper())


def test_poll_gives_the_first_target(chip):
    chip.targets = [(NTAG, b""), (CLASSIC, b"")]
    assert PN532UART(SerialLine(chip)).poll() == NTAG.hex().upper()


def test_a_power_loss_with_a_card_resting_is_configured_again_in_the_same_poll(chip, reader):
    chip.uid = CLASSIC
    assert reader.poll() == CLASSIC.hex().upper()
    chip.power_loss()
    chip.commands.clear()
    assert reader.poll() == CLASSIC.hex().upper()
    assert chip.commands == [0x14, 0x02, 0x32, 0x4A] and chip.max_retries == 1


def test_a_power_loss_on_an_empty_reader_is_configured_again_at_once(chip, reader):
    reader.poll()
    chip.power_loss()
    assert reader.poll_all() == FieldScan()
    assert chip.max_retries == 1
    assert reader.poll_all() == FieldScan()


def test_a_power_loss_is_neither_a_second_tap_nor_an_outage(chip, reader):
    events = []
    loop = ReaderLoop(reader, events.append, offline_after=1)
    chip.uid = NTAG
    loop.step()
    chip.power_loss()
    loop.step()
    loop.step()
    assert events == [Placed(NTAG.hex().upper())] and loop.errors == 0


def test_an_adapter_pulled_out_is_closed_and_reopened_when_it_is_back(chip, adapter, reader):
    chip.uid = CLASSIC
    assert reader.poll() == CLASSIC.hex().upper()
    old_line = adapter.line
    adapter.pull_out()
    for _ in range(5):
        with pytest.raises(ReaderError):        # an OSError the reader loop backs off on
            reader.poll_all()
    assert not old_line.is_open and adapter.opened == 1
    adapter.plug_in()
    assert reader.poll() == CLASSIC.hex().upper()   # a new line, the chip woken and configured
    assert adapter.opened == 2 and chip.max_retries == 1


@pytest.mark.parametrize("fails", ["reset_input_buffer", "write", "read"])
def test_each_way_a_vanished_port_fails_is_a_reader_error(chip, adapter, reader, fails):
    reader.poll()
    line = adapter.line
    for name in ("reset_input_buffer", "write", "read"):
        if name != fails:
            setattr(line, name, getattr(SerialLine(chip), name))   # only `fails` is dead
    adapter.plugged = False
    with pytest.raises(ReaderError, match="serial port failed"):
        reader.poll_all()


def test_an_outage_logs_one_line_each_way_and_no_traceback(chip, adapter, reader, caplog):
    events = []
    loop = ReaderLoop(reader, events.append, offline_after=3)
    chip.uid = CLASSIC
    with caplog.at_level(logging.DEBUG):
        loop.step()
        adapter.pull_out()
        for _ in range(20):
            loop.step()
        adapter.plug_in()
        loop.step()
    loud = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert not any(r.exc_info for r in caplog.records)
    assert [r.name for r in loud] == ["hardware.pn532", "hardware.reader_loop",
                                      "hardware.reader_loop", "hardware.pn532",
                                      "hardware.reader_loop"]
    assert [type(e) for e in events] == [Placed, ReaderOffline, ReaderBack]


def test_an_adapter_missing_at_start_is_explained(adapter):
    adapter.plugged = False
    with pytest.raises(ReaderError, match="cannot open /dev/ttyUSB0.*dialout"):
        open_pn532("/dev/ttyUSB0", opener=adapter.open)


def test_a_port_given_without_a_way_to_reopen_it_says_so(chip, adapter):
    reader = PN532UART(adapter.open())
    reader.poll()
    adapter.pull_out()
    with pytest.raises(ReaderError, match="serial port failed"):
        reader.poll()
    adapter.plug_in()
    with pytest.raises(ReaderError, match="no way to reopen"):
        reader.poll()
