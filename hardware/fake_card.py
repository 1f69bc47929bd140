"""An ISO/IEC 14443-3 type A card, bit by bit, for the fake readers.

Written from the standard's state machine (§6.3) and its bit-frame anticollision
(§6.5.3), independently of the drivers: its own BCC and CRC_A, its own reading
of NVB. A card answers with bits, not bytes, because that is what collides:
when several cards answer at once the reader's chip sees, bit by bit, whether
they agree (`fake_rc522` merges the answers).

States: IDLE -> READY -> ACTIVE -> HALT. REQA wakes only an IDLE card; WUPA
wakes an IDLE or a HALT card. In READY the card takes ANTICOLLISION and SELECT
for its current cascade level: when the UID bits sent do not match its own it
stays silent and READY (it has lost this round), when they do it answers the
rest of its UID part and BCC, or its SAK to a SELECT of the whole part. Any
other frame sends a READY or ACTIVE card back to IDLE, or to HALT if WUPA woke
it from there; HLTA halts an ACTIVE card.

Power: a card is IDLE when the field reaches it, and ISO/IEC 14443-3 (§5) gives it
up to 5 ms of unmodulated field before it must answer. This card answers nothing
before then, and a frame sent meanwhile starts its 5 ms again (the field was not
unmodulated), on the reader's clock (`now`). `coupling` is how strongly the card
answers, relative to the others: the reader's receiver decides what a weaker card's
answer is worth next to a stronger one (capture, `fake_rc522`).
"""
from __future__ import annotations

Bits = tuple[int, ...]

REQA, WUPA = 0x26, 0x52
HLTA = b"\x50\x00"
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
NVB_SELECT = 0x70
PART_BITS = 40                     # four UID bytes and the BCC
POWER_UP_S = 0.005                 # unmodulated field a card may need before it answers


def crc_a(data: bytes) -> bytes:
    """Bitwise CRC_A (reflected CCITT, preset 0x6363), low byte first."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))


def bits_of(data: bytes, count: int | None = None) -> Bits:
    """The bits of `data` in air order: each byte least significant bit first."""
    bits = tuple(byte >> i & 1 for byte in data for i in range(8))
    return bits if count is None else bits[:count]


def bytes_of(bits: Bits) -> bytes:
    """Bits in air order packed into bytes (a short last byte is padded with zeros)."""
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


class FakeCard:
    """A type A card. `lose_answers_to` lists first bytes of frames (0x93: level 1
    ANTICOLLISION or SELECT, 0x52: WUPA...): the card's next answer to each never
    reaches the reader, though the card acts on the frame (a card at the field's edge)."""

    def __init__(self, uid: str | bytes, *, coupling: float = 1.0):
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        assert len(self.uid) in (4, 7, 10)
        self.coupling = coupling
        self.state, self.from_halt, self.level = "IDLE", False, 0
        self.ready_at = float("-inf")    # the reader's time from which the card answers
        self.corrupt_bcc = self.corrupt_crc = False
        self.lose_answers_to: list[int] = []
        self.frames: list[bytes] = []

    @property
    def parts(self) -> list[bytes]:
        """The UID split per cascade level, with the cascade tag where more follow."""
        uid, parts = self.uid, []
        while len(uid) > 4:
            parts.append(bytes([CASCADE_TAG]) + uid[:3])
            uid = uid[3:]
        return parts + [uid]

    @property
    def atqa(self) -> bytes:
        return bytes([{4: 0x04, 7: 0x44, 10: 0x84}[len(self.uid)], 0x00])

    def power_up(self, ready_at: float = float("-inf")) -> None:
        """The field reaches the card (again): IDLE, answering from `ready_at` on."""
        self.state, self.from_halt, self.level = "IDLE", False, 0
        self.ready_at = ready_at

    def receive(self, frame: bytes, last_bits: int, now: float | None = None) -> Bits | None:
        """The card hears `frame` (`last_bits` of its last byte, 0 = all 8) ending at the
        reader's time `now`; its answer, if any."""
        self.frames.append(frame)
        if now is not None and now < self.ready_at:
            self.ready_at = now + POWER_UP_S     # still powering up: the modulation restarts it
            return None
        answer = self._react(frame, last_bits)
        if answer is not None and frame[:1] and frame[0] in self.lose_answers_to:
            self.lose_answers_to.remove(frame[0])
            return None
        return answer

    def _react(self, frame: bytes, last_bits: int) -> Bits | None:
        if last_bits == 7 and len(frame) == 1:
            return self._short_frame(frame[0])
        if self.state == "READY":
            return self._ready(frame, last_bits)
        if self.state == "ACTIVE" and frame == HLTA + crc_a(HLTA) and not last_bits:
            self.state = "HALT"
            return None
        self._leave()
        return None

    def _short_frame(self, command: int) -> Bits | None:
        wakes = {REQA: ("IDLE",), WUPA: ("IDLE", "HALT")}.get(command, ())
        if self.state in wakes:
            self.from_halt, self.state, self.level = self.state == "HALT", "READY", 0
            return bits_of(self.atqa)
        self._leave()
        return None

    def _ready(self, frame: bytes, last_bits: int) -> Bits | None:
        sent = len(frame) * 8 - (8 - last_bits if last_bits else 0)
        if len(frame) < 2 or frame[0] != SELECT_CODES[self.level]:
            self._leave()
            return None
        if frame[1] == NVB_SELECT:
            return self._select(frame, last_bits)
        nvb_bits = (frame[1] >> 4) * 8 + (frame[1] & 0x0F)
        if frame[1] & 0x0F > 7 or not 16 <= nvb_bits < 16 + PART_BITS or nvb_bits != sent:
            self._leave()                # NVB must count exactly the bits sent
            return None
        known = bits_of(frame[2:], nvb_bits - 16)
        mine = bits_of(self._part_and_bcc())
        if mine[:len(known)] != known:
            return None                  # another card's UID: silent, still READY
        return mine[len(known):]

    def _select(self, frame: bytes, last_bits: int) -> Bits | None:
        if last_bits or len(frame) != 9 or crc_a(frame[:7]) != frame[7:]:
            self._leave()
            return None
        part = self.parts[self.level]
        if frame[2:7] != part + bytes([_bcc(part)]):
            return None                  # another card selected: silent, still READY
        last = self.level == len(self.parts) - 1
        sak = (0x08 if len(self.uid) == 4 else 0x00) if last else 0x04
        if last:
            self.state = "ACTIVE"
        else:
            self.level += 1
        crc = crc_a(bytes([sak]))
        return bits_of(bytes([sak]) + (bytes([crc[0] ^ 0x55, crc[1]]) if self.corrupt_crc else crc))

    def _part_and_bcc(self) -> bytes:
        part = self.parts[self.level]
        return part + bytes([_bcc(part) ^ (0xFF if self.corrupt_bcc else 0)])

    def _leave(self) -> None:
        """An unexpected frame sends a READY or ACTIVE card back to IDLE (or HALT)."""
        if self.state in ("READY", "ACTIVE"):
            self.state = "HALT" if self.from_halt else "IDLE"


def _bcc(part: bytes) -> int:
    return part[0] ^ part[1] ^ part[2] ^ part[3]
