"""Every type A card in a reader's field, by ISO/IEC 14443-3 bit-frame anticollision (§6.5.3).

A poll wakes the field with WUPA and runs ANTICOLLISION at cascade level 1: every
READY card answers the UID bits the reader does not know yet. Where two cards
disagree the reader's chip reports the first collided bit; the reader keeps the
bits before it, sets that bit to 1 and asks again, and the cards with a 0 there
fall silent. One card is left when an answer comes without a collision: SELECT
it, go through the next cascade levels the same way while its SAK says the UID
goes on, then halt it (HLTA).

Each 0 left behind at a split is a branch to walk later, from a fresh WUPA. Not
REQA: REQA reaches only IDLE cards, and a card that WUPA woke from HALT goes
back to HALT, not IDLE, on any frame but ANTICOLLISION and SELECT, such as the
HLTA of the card just read. The cards resting on the reader were halted by the last
poll, so REQA would find none of them and only the card winning every split
would ever be read. WUPA wakes the cards already read too, but the UID bits sent
for the branch (and the SELECTs of its earlier cascade levels) leave only that
branch's cards answering. n cards cost n WUPAs; a lone card costs what it always
did: WUPA, then ANTICOLLISION and SELECT per cascade level, then HLTA.

Every card read is halted, and so is the field after an exchange lost mid-poll:
a card left READY or ACTIVE would take the next WUPA as a wrong frame and miss
a poll. Every poll thus ends with the cards in HALT, where the next WUPA finds
them all.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from hardware import iso14443
from hardware.iso14443 import Bits, FieldScan

log = logging.getLogger(__name__)

MAX_CARDS = 8         # more than fit on a reader: past it the poll says "one card at a time"


class RfError(Exception):
    """A card answered badly (moved, corrupted frame): this branch finds no card."""


class Silence(RfError):
    """No card answered before the chip's timer ran out."""


class Unresolved(RfError):
    """Cards collided where the chip could not say which bit: they cannot be told apart."""


@dataclass(frozen=True)
class Reply:
    """What a reader's chip received. `bits` in air order; `collided` when cards disagreed,
    `collision` the index in `bits` of the first bit they disagreed on, if the chip knows."""

    bits: Bits
    collided: bool = False
    collision: int | None = None


class Link(Protocol):
    def transceive(self, frame: bytes, last_bits: int = 0, *, align: bool = False) -> Reply:
        """Send `frame` (`last_bits` of its last byte, 0 = all 8); with `align`, the answer
        continues the partial last byte, as ANTICOLLISION's does. Raises Silence."""
        ...


@dataclass(frozen=True)
class _Branch:
    selected: tuple[bytes, ...]      # UID parts (cascade tag included) of the levels below
    known: Bits                      # the UID bits known at the next level


class Inventory:
    """Runs polls over `link`; `rf_errors` counts the branches lost to a bad answer."""

    def __init__(self, link: Link, *, max_cards: int = MAX_CARDS):
        self._link = link
        self._max_cards = max_cards
        self.rf_errors = 0

    def scan(self) -> FieldScan:
        found: list[str] = []
        branches = [_Branch((), ())]
        unresolved = False
        while branches:
            if len(found) + len(branches) > self._max_cards:
                unresolved = True
                break
            try:
                uid = self._walk(branches.pop(), branches)
            except Silence:
                self._failed("an answer was lost")
                continue
            except RfError as exc:
                unresolved = unresolved or isinstance(exc, Unresolved)
                self._failed(str(exc))
                continue
            if uid is not None and uid not in found:
                found.append(uid)
        return FieldScan(tuple(found), unresolved)

    def _failed(self, why: str) -> None:
        self.rf_errors += 1
        log.debug("no clean answer: %s", why)
        self._halt()      # a card left READY or ACTIVE would miss the next WUPA

    def _walk(self, branch: _Branch, branches: list[_Branch]) -> str | None:
        """The UID of one card of `branch`, or None when no card answers WUPA any more."""
        try:
            atqa = self._link.transceive(bytes([iso14443.WUPA]), iso14443.SHORT_FRAME_BITS)
        except Silence:
            return None                  # an empty field, or the branch's cards left
        if len(atqa.bits) != 16:         # cards' ATQAs may collide: that is no error
            raise RfError(f"ATQA of {len(atqa.bits)} bits")
        selected = list(branch.selected)
        for level, part in enumerate(selected):
            if not self._select(level, part) & iso14443.SAK_CASCADE_BIT:
                raise RfError("a card of this branch finished its UID early")
        known = branch.known
        for level in range(len(selected), len(iso14443.CASCADE_LEVELS)):
            part = self._anticollision(level, known, selected, branches)
            if not self._select(level, part) & iso14443.SAK_CASCADE_BIT:
                self._halt()
                uid = b"".join(p[1:] for p in selected) + part
                return iso14443.uid_hex(uid)
            if part[0] != iso14443.CASCADE_TAG:
                raise RfError("SAK announces another cascade level without a cascade tag")
            selected.append(part)
            known = ()
        raise RfError("UID longer than three cascade levels")

    def _anticollision(self, level: int, known: Bits, selected: list[bytes],
                       branches: list[_Branch]) -> bytes:
        """The UID part of one card at `level`; each split leaves its other side in `branches`."""
        select_code = iso14443.CASCADE_LEVELS[level]
        while True:
            head = bytes([select_code, iso14443.nvb(len(known))]) + iso14443.bytes_of(known)
            reply = self._link.transceive(head, len(known) % 8, align=True)
            if not reply.collided:
                break
            at = reply.collision
            if at is None or at >= len(reply.bits) or len(known) + at >= 32:
                raise Unresolved("cards collided where the chip cannot place the bit")
            common = known + reply.bits[:at]
            branches.append(_Branch(tuple(selected), common + (0,)))
            known = common + (1,)
        whole = known + reply.bits
        if len(whole) != iso14443.PART_BITS:
            raise RfError(f"anticollision answer of {len(reply.bits)} bits after {len(known)}")
        answer = iso14443.bytes_of(whole)
        if iso14443.bcc(answer[:4]) != answer[4]:
            raise RfError(f"BCC mismatch in {answer.hex()}")
        return answer[:4]

    def _select(self, level: int, part: bytes) -> int:
        frame = bytes([iso14443.CASCADE_LEVELS[level], iso14443.NVB_SELECT, *part,
                       iso14443.bcc(part)])
        reply = self._link.transceive(iso14443.with_crc(frame))
        answer = iso14443.bytes_of(reply.bits)
        if reply.collided or len(reply.bits) != 24 or not iso14443.crc_ok(answer):
            raise RfError(f"SAK frame {answer.hex()} fails CRC_A")
        return answer[0]

    def _halt(self) -> None:
        # A halted card answers the next WUPA but no REQA (ISO/IEC 14443-3 §6.3).
        try:
            self._link.transceive(iso14443.with_crc(bytes(iso14443.HLTA)))
        except RfError:
            return
        log.debug("a card answered HLTA (not halted)")
