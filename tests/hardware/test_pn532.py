"""The PN532 HSU driver against a fake PN532: behind a pyserial-like line in the test's own
thread (nothing waits on a clock), and on a real pty for opening a port by its path."""
from __future__ import annotations

import os
import sys

import pytest

from hardware.errors import ReaderError
from hardware.pn532 import PN532UART, encode_frame, open_pn532
from tests.hardware.fakes.pn532_device import NACK, FakePN532, PtyLine, SerialLine, frame

CLASSIC = bytes.fromhex("04A22B91")
NTAG = bytes.fromhex("04112233445566")


@pytest.fixture
def line():
    fake = FakePN532()
    return SerialLine(fake), fake


@pytest.fixture
def reader(line):
    return PN532UART(line[0])


def test_frame_layout_matches_the_user_manual():
    # GetFirmwareVersion, as printed in UM0701-02 §7.2.2
    assert encode_frame(b"\xd4\x02") == bytes.fromhex("0000ff02fed4022a00")


def test_wake_up_then_configure_then_no_card(line, reader):
    _, fake = line
    assert reader.poll() is None
    assert fake.awake
    assert fake.commands == [0x14, 0x02, 0x32, 0x4A]
    assert fake.max_retries == 1                    # bounded: never "retry for ever"
    assert reader.firmware == (0x32, 0x01, 0x06, 0x07)


@pytest.mark.parametrize("uid", [CLASSIC, NTAG], ids=["4-byte", "7-byte"])
def test_reads_both_uid_lengths(line, reader, uid):
    line[1].uid = uid
    assert reader.poll() == uid.hex().upper()
    assert reader.poll() == uid.hex().upper()


def test_a_frame_with_a_bad_checksum_is_nacked(line, reader):
    port, fake = line
    reader.poll()
    good = encode_frame(b"\xd4\x02")
    port.write(good[:-2] + bytes([good[-2] ^ 1, 0]))
    assert port.read(6) == NACK
    assert fake.nacks_sent == 1


def test_the_driver_sends_a_nacked_command_again(line, reader):
    _, fake = line
    fake.nack_next = True
    fake.uid = NTAG
    assert reader.poll() == NTAG.hex().upper()
    assert fake.nacks_sent == 1


def test_a_damaged_response_is_asked_for_again(line, reader):
    _, fake = line
    reader.poll()
    fake.uid = CLASSIC
    fake.damage_responses = 1
    assert reader.poll() == CLASSIC.hex().upper()
    assert fake.nacks_received == 1


def test_garbage_on_the_line_is_skipped(line, reader):
    _, fake = line
    fake.garbage = b"\x13\x37\xff\x00\x00"
    fake.uid = CLASSIC
    assert reader.poll() == CLASSIC.hex().upper()


def test_silence_raises_and_the_next_poll_wakes_it_again(line, reader):
    _, fake = line
    reader.poll()
    fake.mute = True
    with pytest.raises(ReaderError, match="timed out 3 times"):
        reader.poll()
    fake.mute = False
    fake.commands.clear()
    fake.uid = NTAG
    assert reader.poll() == NTAG.hex().upper()
    assert fake.commands[0] == 0x14                  # woken and configured again


def test_an_error_frame_is_an_error(line, reader):
    _, fake = line
    fake.error_on = {0x4A}
    with pytest.raises(ReaderError, match="error frame"):
        reader.poll()


def test_fake_frames_are_what_the_driver_parses():
    assert frame(b"\x15") == bytes.fromhex("0000ff02fed5151600")


def test_open_pn532_opens_the_port_it_is_given():
    """A real pty: the chip answers every command, so the port's timeout only bounds a
    failure and never runs out in a pass, however loaded the machine."""
    master, slave = os.openpty()
    fake, chip = None, FakePN532()
    try:
        # pyserial puts the slave in raw mode; it must be open before the fake talks.
        reader = open_pn532(os.ttyname(slave), timeout=30)
        fake = PtyLine(chip, master)
        fake.start()
        chip.uid = CLASSIC
        assert reader.poll() == CLASSIC.hex().upper()
        reader.close()
    finally:
        if fake is not None:
            fake.stop()
        os.close(master)
        os.close(slave)


def test_open_pn532_explains_a_missing_port():
    with pytest.raises(ReaderError, match="enable_uart=1"):
        open_pn532("/dev/no-such-serial-port")


# --- a response lost after its ACK (UM0701-02 §6.2.1.3: the host aborts with ACK) ---

def test_one_lost_response_is_recovered_in_the_same_poll(line, reader):
    _, fake = line
    reader.poll()
    fake.commands.clear()
    fake.uid = CLASSIC
    fake.lose_responses = 1
    assert reader.poll() == CLASSIC.hex().upper()
    assert fake.commands == [0x4A, 0x4A]           # sent again after...
    assert fake.aborts == 1                          # ...an ACK aborted the first


def test_two_lost_responses_are_within_the_retries(line, reader):
    _, fake = line
    reader.poll()
    fake.commands.clear()
    fake.uid = NTAG
    fake.lose_responses = 2
    assert reader.poll() == NTAG.hex().upper()
    assert fake.commands == [0x4A] * 3 and fake.aborts == 2


def test_permanent_silence_after_the_ack_raises_after_the_bounded_retries(line, reader):
    _, fake = line
    reader.poll()
    fake.commands.clear()
    fake.uid = CLASSIC
    fake.lose_responses = sys.maxsize
    with pytest.raises(ReaderError, match="timed out 3 times on command 0x4A"):
        reader.poll()
    assert fake.aborts == 3                          # every attempt aborted, the last too
    assert fake.commands == [0x4A] * 3
    fake.lose_responses = 0
    assert reader.poll() == CLASSIC.hex().upper()   # woken, configured, read


@pytest.mark.parametrize("uid", [CLASSIC, NTAG], ids=["4-byte", "7-byte"])
def test_a_card_held_on_the_reader_is_reported_on_every_poll(line, reader, uid):
    line[1].uid = uid
    assert [reader.poll() for _ in range(10)] == [uid.hex().upper()] * 10


@pytest.mark.parametrize("uid, digits", [(CLASSIC, 8), (NTAG, 14)], ids=["4-byte", "7-byte"])
def test_uids_are_exactly_uppercase_hex_of_their_length(line, reader, uid, digits):
    line[1].uid = uid
    read = reader.poll()
    assert len(read) == digits and read == read.upper() and bytes.fromhex(read) == uid


def test_a_response_that_stays_damaged_is_no_card_not_an_error(line, reader):
    _, fake = line
    reader.poll()
    fake.uid = CLASSIC
    fake.damage_responses = 3                        # the response and both resends
    assert reader.poll() is None
    assert fake.nacks_received == 2
    assert reader.poll() == CLASSIC.hex().upper()


def test_a_malformed_target_list_is_no_card(line, reader):
    _, fake = line
    reader.poll()
    fake.handle = lambda command, params: bytes([0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, 9, 1, 2])
    assert reader.poll() is None
