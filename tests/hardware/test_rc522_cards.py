"""Several cards on the RC522: anticollision on the bit-level fake, at every cascade level.

Every test runs on both chip models (StartSend acting when written, and stored).
The cards answer bit by bit; where they disagree the fake chip reports a collision
and CollReg its position, as the datasheet describes.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import rc522
from hardware.errors import ReaderError
from hardware.events import Placed, ReaderCrowded, ReaderOffline, Removed
from hardware.fake_card import bits_of, crc_a
from hardware.fake_rc522 import CHIP_MODELS, FakeCard
from hardware.iso14443 import FieldScan
from hardware.presence import Presence
from hardware.rc522 import RC522
from hardware.reader_loop import ReaderLoop

A, B = "04A22B91", "04A22B92"                       # differ in the last bit of byte 3
NTAG_1, NTAG_2 = "04112233445566", "04112233445567"   # same level 1, differ at level 2
LONG_1, LONG_2 = "0411223344556677889A", "0411223344556677889B"   # differ at level 3


@pytest.fixture(params=CHIP_MODELS, ids=lambda model: model.__name__)
def chip(request):
    return request.param()


@pytest.fixture
def reader(chip):
    return RC522(chip, sleep=chip.sleep)


def place(chip, *uids):
    return [chip.place(FakeCard(uid)) for uid in uids]


@pytest.mark.parametrize("uids", [(A, B), (NTAG_1, NTAG_2), (LONG_1, LONG_2), (A, NTAG_1, LONG_1),
                                  ("01020304", "81020304", "01820304", "01020384", "01020305")],
                         ids=["level-1", "level-2", "level-3", "mixed-lengths", "five"])
def test_every_card_in_the_field_is_reported(chip, reader, uids):
    cards = place(chip, *uids)
    assert set(reader.poll_all().uids) == set(uids)
    assert all(card.state == "HALT" for card in cards)          # each halted once read


def test_cards_resting_on_the_reader_are_all_reported_on_every_poll(chip, reader):
    place(chip, A, NTAG_1, NTAG_2)
    scans = [reader.poll_all() for _ in range(5)]
    assert all(set(scan.uids) == {A, NTAG_1, NTAG_2} and not scan.unresolved for scan in scans)
    assert reader.rf_errors == 0


def test_a_lone_card_is_read_once_then_confirmed_by_its_uid(chip, reader):
    card, = place(chip, NTAG_1)
    assert reader.poll_all() == FieldScan((NTAG_1,))
    # REQA, anticollision and SELECT at both levels, HLTA, and a REQA nobody answers
    assert [frame[:2] for frame in card.frames] == [b"\x26", b"\x93\x20", b"\x93\x70",
                                                    b"\x95\x20", b"\x95\x70", b"\x50\x00",
                                                    b"\x26"]
    card.frames.clear()
    assert reader.poll_all() == FieldScan((NTAG_1,))
    # WUPA wakes it from HALT, SELECT by its UID, HLTA; REQA finds nobody new
    assert [frame[:2] for frame in card.frames] == [b"\x52", b"\x93\x70", b"\x95\x70",
                                                    b"\x50\x00", b"\x26"]


def test_the_split_sends_the_bits_before_the_collision_and_a_one(chip, reader):
    first, _ = place(chip, A, B)
    reader.poll_all()
    # A (..91) and B (..92) first differ at bit 25, the low bit of byte 4: the second
    # ANTICOLLISION sends the 24 bits before it and that bit set, three bytes and one
    # bit (NVB 0x51); B's branch (the bit clear) is walked from a new REQA, and a last
    # REQA finds nobody left.
    assert first.frames[2] == bytes([0x93, 0x51, 0x04, 0xA2, 0x2B, 0x01])
    assert first.frames.count(b"\x26") == 3


@given(st.lists(st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
                min_size=1, max_size=6, unique=True),
       st.sampled_from(CHIP_MODELS))
@settings(max_examples=60)
def test_any_set_of_cards_is_read_exactly(uids, model):
    chip = model()
    # a UID part starting with the cascade tag is not a valid single-size UID
    uids = [uid for uid in uids if uid[0] != 0x88 and (len(uid) == 4 or uid[3] != 0x88)]
    expected = {uid.hex().upper() for uid in uids}
    for uid in uids:
        chip.place(FakeCard(uid))
    reader = RC522(chip, sleep=chip.sleep)
    for _ in range(2):
        scan = reader.poll_all()
        assert set(scan.uids) == expected and len(scan.uids) == len(expected)
        assert not scan.unresolved


def test_collreg_gives_the_collided_bit_counted_from_the_first_fifo_bit(chip):
    place(chip, A, B)
    link = RC522(chip, sleep=chip.sleep)
    link.poll_all()                                 # initialised; both cards halted
    link.transceive(b"\x52", 7)
    chip.writes = []
    reply = link.transceive(bytes([0x93, 0x20]), 0, align=True)
    assert reply.collided and reply.collision == 24   # bit 25 of the FIFO: byte 3, bit 0
    assert chip.regs[rc522.CollReg] & 0x3F == 25
    assert reply.bits[:24] == bits_of(bytes.fromhex("04A22B"))
    assert reply.bits[24:] == (1,) + (0,) * 15        # ValuesAfterColl clear: zeros after it
    # With 12 bits known, RxAlign 4: CollPos counts the 4 bits below the first one received.
    reply = link.transceive(bytes([0x93, 0x34, 0x04, 0x02]), 4, align=True)
    assert reply.collided and reply.collision == 24 - 12
    assert chip.regs[rc522.CollReg] & 0x3F == 4 + 12 + 1


def test_a_collision_past_bit_32_is_not_placed_and_the_cards_are_unresolved(chip):
    _, twin = place(chip, A, A)
    twin.corrupt_bcc = True                         # same UID bits, another BCC
    link = RC522(chip, sleep=chip.sleep)
    assert link.poll_all() == FieldScan((), unresolved=True)
    link.reset_field()
    link.transceive(b"\x26", 7)
    reply = link.transceive(bytes([0x93, 0x20]), 0, align=True)   # collision at FIFO bit 33
    assert reply.collided and reply.collision is None
    assert chip.regs[rc522.CollReg] & rc522.CollPosNotValid


def test_cards_that_cannot_be_told_apart_are_reported_unresolved(chip, reader):
    place(chip, A, NTAG_1)
    chip.unplaced_collisions = True                 # cards answering out of step
    assert reader.poll_all() == FieldScan((), unresolved=True)
    chip.unplaced_collisions = False
    assert set(reader.poll_all().uids) == {A, NTAG_1}


def test_more_cards_than_a_reader_holds_are_unresolved_and_never_misread(chip, reader):
    uids = [f"0102030{i}" for i in range(9)]
    place(chip, *uids)
    scan = reader.poll_all()
    assert scan.unresolved and set(scan.uids) <= set(uids)


def test_a_card_laid_next_to_a_resting_one_is_one_tap_of_the_new_card(chip, reader):
    events = []
    loop = ReaderLoop(reader, events.append, presence=Presence(misses=3))
    place(chip, NTAG_1)
    for _ in range(5):
        loop.step()
    second, = place(chip, NTAG_2)
    for _ in range(5):
        loop.step()
    chip.remove(second)
    for _ in range(5):
        loop.step()
    assert events == [Placed(NTAG_1), Placed(NTAG_2), Removed(NTAG_2)]


def test_unresolved_cards_say_one_card_at_a_time_once(chip, reader):
    events = []
    loop = ReaderLoop(reader, events.append)
    place(chip, A, B)
    chip.unplaced_collisions = True
    for _ in range(4):
        loop.step()
    assert events == [ReaderCrowded()]
    chip.unplaced_collisions = False
    loop.step()
    assert events == [ReaderCrowded(), Placed(A), Placed(B)] or \
        events == [ReaderCrowded(), Placed(B), Placed(A)]


@pytest.mark.parametrize("command", [0x93, 0x95])
def test_a_lost_sak_of_a_resting_card_is_asked_again_in_the_same_poll(chip, reader, command):
    card, = place(chip, NTAG_1)
    assert reader.poll_all().uids == (NTAG_1,)
    card.lose_answers_to = [command]
    assert reader.poll_all().uids == (NTAG_1,)
    assert card.state == "HALT" and reader.rf_errors == 1 and reader.field_resets == 0


@pytest.mark.parametrize("command", [0x93, 0x95])
def test_a_lost_answer_of_a_new_card_is_asked_again_in_the_same_poll(chip, reader, command):
    card, = place(chip, NTAG_1)
    card.lose_answers_to = [command]
    assert reader.poll_all().uids == (NTAG_1,)
    assert card.state == "HALT" and reader.rf_errors == 1
    assert reader.poll_all().uids == (NTAG_1,)


def test_a_lost_answer_of_one_card_leaves_the_other_reported(chip, reader):
    first, _ = place(chip, A, NTAG_1)
    first.lose_answers_to = [0x93]
    assert reader.poll_all().uids in ((NTAG_1,), (A, NTAG_1), (NTAG_1, A))
    assert set(reader.poll_all().uids) == {A, NTAG_1}


@pytest.mark.parametrize("stuck", [0x00, 0xFF])
def test_miso_stuck_is_a_fault_not_a_crowd(chip, reader, stuck):
    place(chip, A)
    assert reader.poll() == A
    chip.miso_stuck = stuck
    with pytest.raises(ReaderError, match=f"VersionReg reads 0x{stuck:02X}"):
        reader.poll_all()
    with pytest.raises(ReaderError):
        reader.poll_all()                            # initialising again fails as loudly
    chip.miso_stuck = None
    assert reader.poll() == A


@pytest.mark.parametrize("stuck", [0x00, 0xFF])
def test_miso_stuck_takes_the_reader_offline(chip, reader, stuck):
    events = []
    loop = ReaderLoop(reader, events.append, offline_after=3)
    place(chip, A)
    loop.step()
    chip.miso_stuck = stuck
    for _ in range(3):
        loop.step()
    assert events[0] == Placed(A) and isinstance(events[1], ReaderOffline)
    assert not loop.online


# --- the card's ISO/IEC 14443-3 states, which decide WUPA over REQA -----------------

def halted_card(uid):
    card = FakeCard(uid)
    card.state = "HALT"
    return card


def test_a_card_woken_from_halt_goes_back_to_halt_on_a_frame_not_for_it():
    card = halted_card(A)
    assert card.receive(b"\x52", 7) is not None and card.state == "READY"
    hlta = b"\x50\x00" + crc_a(b"\x50\x00")
    assert card.receive(hlta, 0) is None and card.state == "HALT"   # another card's HLTA
    assert card.receive(b"\x26", 7) is None                          # so REQA cannot find it
    assert card.receive(b"\x52", 7) is not None                      # WUPA can


def test_a_card_whose_uid_does_not_match_the_bits_sent_stays_silent_and_ready():
    card = FakeCard(A)
    card.receive(b"\x52", 7)
    # A's first UID bit is 0 (0x04): a 1 there is another card's round
    assert card.receive(bytes([0x93, 0x21, 0x01]), 1) is None and card.state == "READY"
    assert card.receive(bytes([0x93, 0x21, 0x00]), 1) == bits_of(bytes.fromhex(A + "1C"))[1:]


def test_an_nvb_that_does_not_count_the_bits_sent_is_a_wrong_frame():
    card = FakeCard(A)
    card.receive(b"\x52", 7)
    assert card.receive(bytes([0x93, 0x22, 0x00]), 1) is None and card.state == "IDLE"
