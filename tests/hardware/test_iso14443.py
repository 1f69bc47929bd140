"""CRC_A and BCC against ISO/IEC 14443-3 Annex B and the fake's independent CRC."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware import iso14443
from hardware.fake_rc522 import crc_a as bitwise_crc_a


def test_crc_a_matches_the_annex_b_vectors():
    assert iso14443.crc_a(b"\x00\x00") == b"\xa0\x1e"
    assert iso14443.crc_a(b"\x12\x34") == b"\x26\xcf"
    assert iso14443.crc_a(bytes(iso14443.HLTA)) == b"\x57\xcd"


@given(st.binary(max_size=32))
def test_crc_a_agrees_with_a_bitwise_implementation(data):
    assert iso14443.crc_a(data) == bitwise_crc_a(data)
    assert iso14443.crc_ok(iso14443.with_crc(data)) == (len(data) > 0)


def test_bcc_is_the_xor_of_the_uid_part():
    assert iso14443.bcc(bytes.fromhex("04A22B91")) == 0x04 ^ 0xA2 ^ 0x2B ^ 0x91
    assert iso14443.uid_hex(bytes.fromhex("04a22b91")) == "04A22B91"
