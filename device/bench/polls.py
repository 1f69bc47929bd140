"""The reader's poll rate: our reader loop and RC522 driver on the simulated MFRC522, with
1, 2 and 5 cards resting on it.

Time is the chip model's (`hardware.fake_rc522`): each SPI transfer, each frame on air
and each timer wait counts as it would on a Pi Zero 2 W, and the loop's waits pass on
the same clock, so the figures are the rate the table would see, whatever this
machine's speed. `polls_per_s` is what the loop achieves at the configured rate,
`poll_ms` what one poll takes (so 1000 / poll_ms is the most it could do), and
`missed_percent` the polls that left out a card resting there, with 4% of the cards'
answers corrupted.
"""
from __future__ import annotations

import logging

from hardware.fake_rc522 import FakeCard, FakeMFRC522
from hardware.rc522 import RC522
from hardware.reader_loop import ReaderLoop

# Classic 4-byte UIDs and NTAG 7-byte ones, as a table's deck mixes them
UIDS = ("04A22B91", "04112233445566", "08C3D4E5", "04AABBCCDDEEF0", "2B3C4D5E")
CARD_COUNTS = (1, 2, 5)
NOISE = 0.04


class _Timed:
    """The driver, with the chip time its polls take and the polls that missed a card."""

    def __init__(self, reader: RC522, chip: FakeMFRC522, cards: int):
        self._reader, self._chip, self._cards = reader, chip, cards
        self.busy_s = 0.0
        self.polls = self.missed = 0

    def poll_all(self):
        started = self._chip.now
        scan = self._reader.poll_all()
        self.busy_s += self._chip.now - started
        self.polls += 1
        self.missed += len(scan.uids) < self._cards
        return scan


def run_loop(cards: int, poll_hz: float, seconds: float, noise: float = 0.0) -> _Timed:
    """Our reader loop for `seconds` of chip time with `cards` resting on the reader."""
    chip = FakeMFRC522(noise=noise, seed=cards)
    for uid in UIDS[:cards]:
        chip.place(FakeCard(uid))
    timed = _Timed(RC522(chip, sleep=chip.sleep), chip, cards)

    def wait(delay: float) -> None:
        chip.sleep(delay)
        if chip.now >= seconds:
            loop.stop(timeout=0)

    loop = ReaderLoop(timed, lambda event: None, rate_hz=poll_hz, wait=wait, clock=chip.clock)
    said = logging.getLogger("hardware.reader_loop")
    said.disabled = True              # a noisy run may fall behind: the figures say it
    try:
        loop.run()
    finally:
        said.disabled = False
    return timed


def poll_rates(poll_hz: float, seconds: float) -> dict:
    """Per card count: polls a second at `poll_hz`, one poll's time, and the polls missing a
    card at 4% noise."""
    rates: dict = {"poll_hz": poll_hz}
    for cards in CARD_COUNTS:
        clean = run_loop(cards, poll_hz, seconds)
        noisy = run_loop(cards, poll_hz, seconds, NOISE)
        rates[str(cards)] = {"polls_per_s": round(clean.polls / seconds, 1),
                             "poll_ms": round(1000 * clean.busy_s / clean.polls, 2),
                             "missed_percent": round(100 * noisy.missed / noisy.polls, 2)}
    return rates
