"""The ISO/IEC 14443-3 type A pieces a reader needs: commands, BCC and CRC_A.

Shared by every driver that talks to cards directly, so a UID is checked the
same way whatever chip carried it.
"""
from __future__ import annotations

import re
from typing import NamedTuple

# Short frames (7 bits). WUPA also wakes a card that was halted, so a card left
# on the reader answers every poll; REQA only reaches cards in the IDLE state.
# Each poll halts every card it read, so the next WUPA finds them all again.
REQA = 0x26
WUPA = 0x52
SHORT_FRAME_BITS = 7

# Anticollision and SELECT, one select code per cascade level (§6.5.3).
SEL_CL1, SEL_CL2, SEL_CL3 = 0x93, 0x95, 0x97
CASCADE_LEVELS = (SEL_CL1, SEL_CL2, SEL_CL3)
NVB_ANTICOLLISION = 0x20   # two bytes sent: "send me all your UID bits"
NVB_SELECT = 0x70          # seven bytes sent: the full UID part and its BCC
PART_BITS = 40             # a UID part on air: four bytes and the BCC
CASCADE_TAG = 0x88         # first byte of a UID part when more levels follow
SAK_CASCADE_BIT = 0x04     # set in SAK while the UID is not complete

HLTA = (0x50, 0x00)

UID_LENGTHS = (4, 7, 10)


def bcc(part: bytes) -> int:
    """Block check character of a 4-byte UID part: the XOR of its bytes."""
    value = 0
    for byte in part:
        value ^= byte
    return value


def crc_a(data: bytes) -> bytes:
    """CRC_A (ISO/IEC 14443-3 Annex B), low byte first as sent on air."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, crc >> 8))


def with_crc(frame: bytes) -> bytes:
    return frame + crc_a(frame)


def crc_ok(frame: bytes) -> bool:
    """True when the last two bytes are the CRC_A of the ones before."""
    return len(frame) > 2 and crc_a(frame[:-2]) == frame[-2:]


def uid_hex(uid: bytes) -> str:
    """The canonical form: uppercase hex, no separators (8, 14 or 20 digits)."""
    return uid.hex().upper()


def uid_of_text(text: str) -> str:
    """A UID as people write it (04:A1:B2:C3, 04a1b2c3, spaced or dashed) in the canonical
    form; ValueError saying why unless it is 4, 7 or 10 bytes of hex: a tag typed or read
    from a file then matches the tag a reader reads."""
    uid = re.sub(r"[\s:-]", "", str(text)).upper()
    if len(uid) not in [2 * n for n in UID_LENGTHS] or not re.fullmatch(r"[0-9A-F]+", uid):
        raise ValueError(f"{text!r} is not a tag UID (8, 14 or 20 hex digits)")
    return uid


Bits = tuple[int, ...]


def bits_of(data: bytes) -> Bits:
    """The bits of `data` in the order they go on air: each byte's least significant first."""
    return tuple(byte >> i & 1 for byte in data for i in range(8))


def bytes_of(bits: Bits) -> bytes:
    """Bits in air order packed into bytes; a short last byte is padded with zeros."""
    packed = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        packed[i // 8] |= bit << i % 8
    return bytes(packed)


def nvb(known_bits: int) -> int:
    """The NVB byte of an ANTICOLLISION frame sending `known_bits` of the UID part:
    bytes sent in the high nibble (SEL and NVB included), extra bits in the low one."""
    sent = 16 + known_bits
    return (sent // 8) << 4 | sent % 8


class FieldScan(NamedTuple):
    """What one poll of a reader found: every card it could read, and whether cards
    answered that it could not tell apart (`unresolved`: "one card at a time")."""

    uids: tuple[str, ...] = ()
    unresolved: bool = False

    @classmethod
    def of(cls, uid: str | None) -> FieldScan:
        """A single-card reader's poll as a scan."""
        return cls(() if uid is None else (uid,))
