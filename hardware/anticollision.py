"""Every type A card in a reader's field, by ISO/IEC 14443-3 (§6.3 states, §6.5.3 anticollision).

A poll first asks after the cards it read before, one by one: WUPA wakes them
from HALT, SELECT with a card's whole UID gets that card's SAK alone, HLTA halts
it again. Only that card answers the SELECT, so a card is confirmed whatever the
coupling of the others: where two cards answer at once the reader's receiver
hears a weaker one only when it reaches CollLevel of the stronger (capture), so a
card under a stronger one is found this way and never by a walk the stronger
wins.

The other cards are reached with REQA, which halted cards ignore: only cards not
read yet (IDLE) answer. ANTICOLLISION at cascade level 1 asks for the UID bits
the reader does not know yet; where cards disagree the chip reports the first
collided bit, the reader keeps the bits before it, sets that bit to 1 and asks
again, and the cards with a 0 there fall silent. One card is left when an answer
comes without a collision: SELECT it, go through the next cascade levels the same
way while its SAK says the UID goes on, then HLTA. Each 0 left behind is a branch,
walked from the next REQA (a card not selected went back to IDLE on the HLTA).
REQA goes on until nobody answers, which also finds a card that a stronger one
hid in the walks before: that one is halted now.

A known card that does not answer is lifted, or out of reach: halted, and its
answers lost. Then the field is reset (off, on, 5 ms for the cards to power up):
every card is IDLE again and REQA reaches them all, so a card lying on the
reader is never left out for long.

Noise: an ANTICOLLISION frame answered badly (parity, BCC) or not at all is sent
again, a SELECT met with silence too, at most `retries` times a step. A SAK that
fails CRC_A cannot be asked again (the card has moved on): the walk starts over
from REQA, which a READY or ACTIVE card takes as a wrong frame and falls back to
IDLE from, at most `retries` times in a row. What a poll has read stays read
whatever fails after it.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from hardware import iso14443
from hardware.iso14443 import Bits, FieldScan

log = logging.getLogger(__name__)

MAX_CARDS = 8         # more than fit on a reader: past it the poll says "one card at a time"
RETRIES = 2           # a step asked again at most this often
# HLTA is taken when no card answers within 1 ms (ISO/IEC 14443-3 §6.4.3). An ATQA
# comes 1172/fc (86 µs) after REQA or WUPA, so 1 ms is ample there too, and the REQA
# that ends every poll unanswered costs 1 ms instead of the link's longer wait.
SHORT_TIMEOUT_S = 0.001


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
    def transceive(self, frame: bytes, last_bits: int = 0, *, align: bool = False,
                   timeout_s: float | None = None) -> Reply:
        """Send `frame` (`last_bits` of its last byte, 0 = all 8); with `align`, the answer
        continues the partial last byte, as ANTICOLLISION's does. `timeout_s` replaces the
        link's own wait for an answer. Raises Silence, or RfError for a garbled answer."""
        ...

    def reset_field(self) -> None:
        """Field off long enough for every card to reset, on again, and the cards' power-up."""
        ...


@dataclass(frozen=True)
class _Branch:
    selected: tuple[bytes, ...]      # UID parts (cascade tag included) of the levels below
    known: Bits                      # the UID bits known at the next level


ROOT = _Branch((), ())
Parts = tuple[bytes, ...]            # a card's UID parts, one per cascade level, as selected


class Inventory:
    """Runs polls over `link`; `rf_errors` counts the exchanges lost to a bad answer,
    `field_resets` the polls that had to reset the field."""

    def __init__(self, link: Link, *, max_cards: int = MAX_CARDS, retries: int = RETRIES):
        self._link = link
        self._max_cards = max_cards
        self._retries = retries
        self._known: dict[str, Parts] = {}
        self._unsettled = False          # a walk failed last: cards may still be READY
        self.rf_errors = 0
        self.field_resets = 0

    def scan(self) -> FieldScan:
        found = {uid: parts for uid, parts in self._known.items() if self._confirm(parts)}
        if len(found) < len(self._known):
            self._link.reset_field()
            self.field_resets += 1
        unresolved = self._collect(found)
        self._known = found
        return FieldScan(tuple(found), unresolved)

    # --- the cards read before: WUPA, SELECT by UID, HLTA ---------------------------

    def _confirm(self, parts: Parts) -> bool:
        for attempt in range(1 + self._retries):
            if attempt:
                self._halt()             # READY or ACTIVE back to HALT, where WUPA finds it
            try:
                self._link.transceive(bytes([iso14443.WUPA]), iso14443.SHORT_FRAME_BITS,
                                      timeout_s=SHORT_TIMEOUT_S)
            except Silence:
                continue
            except RfError:
                pass                     # ATQAs garbled or collided: the cards are READY all the same
            try:
                for level, part in enumerate(parts):
                    self._select(level, part, retries=0)
            except RfError as exc:
                self._lost(exc)
                continue
            self._halt()
            return True
        return False

    # --- the cards not read yet: REQA and the anticollision walk -----------------------

    def _collect(self, found: dict[str, Parts]) -> bool:
        """Read every card REQA reaches into `found`; True when cards answered that could
        not be told apart, or more than a reader holds."""
        branches: list[_Branch] = []
        failed, unresolved = 0, False
        while failed <= self._retries:
            if not self._request(again=failed > 0 or self._unsettled):
                self._unsettled = False
                return unresolved
            self._unsettled = True       # until the walk ends with the card halted
            if len(found) >= self._max_cards:
                return True
            try:
                uid, parts = self._walk(branches.pop() if branches else ROOT, branches)
            except Unresolved as exc:
                unresolved, failed = True, failed + 1
                log.debug("cards not told apart: %s", exc)
                continue
            except RfError as exc:
                self._lost(exc)
                failed += 1
                continue
            found[uid], failed, self._unsettled = parts, 0, False
        return unresolved

    def _request(self, *, again: bool) -> bool:
        """Do cards not halted answer REQA? After a failed walk a card may still be READY or
        ACTIVE: it takes the first REQA as a wrong frame, falls back to IDLE, answers the next."""
        for _ in range(2 if again else 1):
            try:
                self._link.transceive(bytes([iso14443.REQA]), iso14443.SHORT_FRAME_BITS,
                                      timeout_s=SHORT_TIMEOUT_S)
            except Silence:
                continue
            except RfError:
                pass                     # garbled or collided ATQAs: cards answered
            return True
        return False

    def _walk(self, branch: _Branch, branches: list[_Branch]) -> tuple[str, Parts]:
        """The UID of one card of `branch`, its UID parts, the card halted."""
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
                return iso14443.uid_hex(uid), (*selected, part)
            if part[0] != iso14443.CASCADE_TAG:
                raise RfError("SAK announces another cascade level without a cascade tag")
            selected.append(part)
            known = ()
        raise RfError("UID longer than three cascade levels")

    def _anticollision(self, level: int, known: Bits, selected: list[bytes],
                       branches: list[_Branch]) -> bytes:
        """The UID part of one card at `level`; each split leaves its other side in `branches`."""
        select_code = iso14443.CASCADE_LEVELS[level]
        tries = 0
        while True:
            head = bytes([select_code, iso14443.nvb(len(known))]) + iso14443.bytes_of(known)
            try:
                reply = self._link.transceive(head, len(known) % 8, align=True)
                if not reply.collided:
                    return self._part(known, reply)
            except RfError as exc:       # lost or garbled: a READY card answers it again
                tries += 1
                if tries > self._retries:
                    raise
                self._lost(exc)
                continue
            at = reply.collision
            if at is None or at >= len(reply.bits) or len(known) + at >= 32:
                raise Unresolved("cards collided where the chip cannot place the bit")
            common = known + reply.bits[:at]
            branches.append(_Branch(tuple(selected), common + (0,)))
            known, tries = common + (1,), 0

    @staticmethod
    def _part(known: Bits, reply: Reply) -> bytes:
        whole = known + reply.bits
        if len(whole) != iso14443.PART_BITS:
            raise RfError(f"anticollision answer of {len(reply.bits)} bits after {len(known)}")
        answer = iso14443.bytes_of(whole)
        if iso14443.bcc(answer[:4]) != answer[4]:
            raise RfError(f"BCC mismatch in {answer.hex()}")
        return answer[:4]

    def _select(self, level: int, part: bytes, retries: int | None = None) -> int:
        """SELECT the card whose UID part at `level` is `part`: its SAK. Silence is asked
        again (the card may not have heard); a garbled SAK is not, the card has moved on."""
        frame = bytes([iso14443.CASCADE_LEVELS[level], iso14443.NVB_SELECT, *part,
                       iso14443.bcc(part)])
        for tries_left in range(self._retries if retries is None else retries, -1, -1):
            try:
                reply = self._link.transceive(iso14443.with_crc(frame))
                break
            except Silence:
                if not tries_left:
                    raise
                self._lost(Silence("SELECT unanswered"))
        answer = iso14443.bytes_of(reply.bits)
        if reply.collided or len(reply.bits) != 24 or not iso14443.crc_ok(answer):
            raise RfError(f"SAK frame {answer.hex()} fails CRC_A")
        return answer[0]

    def _halt(self) -> None:
        # A halted card answers WUPA but no REQA (ISO/IEC 14443-3 §6.3); no answer
        # within 1 ms means the card took it (§6.4.3).
        try:
            self._link.transceive(iso14443.with_crc(bytes(iso14443.HLTA)), timeout_s=SHORT_TIMEOUT_S)
        except RfError:
            return
        log.debug("a card answered HLTA (not halted)")

    def _lost(self, exc: Exception) -> None:
        self.rf_errors += 1
        log.debug("no clean answer: %s", exc)
