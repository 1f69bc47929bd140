"""The reader thread: poll at a steady rate, feed presence, survive faults.

Polls keep a fixed schedule: each is due one interval after the one before, however
long the poll itself took, so the rate is `rate_hz` and does not drift. A poll that
takes longer than the interval is followed by the next at once: the loop polls as
fast as it can then, and says so once in the log (from the second such poll in a
row: the first poll, which sets the chip up, may take longer). It sleeps until the next poll is
due (on an Event, so `stop()` is immediate), counts every
failed poll, backs off exponentially while the reader fails and reports
`ReaderOffline` once failures persist and `ReaderBack` when a poll succeeds
again. An outage is logged when it starts, when it goes offline and when it
ends, not at every retry. Presence keeps its state across an outage, so a card
that stayed on the reader is not a new tap. A reader that reports every card
in its field (``poll_all()``) feeds presence all of them; cards it could not
tell apart make one `ReaderCrowded` until a poll resolves them. Events go to
`emit` (e.g. ``queue.Queue.put``); the loop never waits on whoever handles them.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.events import HardwareEvent, ReaderBack, ReaderCrowded, ReaderOffline
from hardware.iso14443 import FieldScan
from hardware.presence import Presence

log = logging.getLogger(__name__)

CROWD_ENDS_AFTER = 3      # empty polls in a row that end a spell of cards not told apart


class ReaderLoop:
    """Polls `reader` on its own thread: ``poll_all() -> FieldScan`` when it has
    it, else ``poll() -> str | None``.

    ``offline_after`` failures in a row make the reader offline; waits after a
    failure grow from ``backoff_s`` to ``max_backoff_s``. ``wait(seconds)``
    defaults to the stop event's wait and ``clock`` to the monotonic clock; tests
    pass their own.
    """

    def __init__(self, reader: Any, emit: Callable[[HardwareEvent], None], *,
                 presence: Presence | None = None, rate_hz: float = 20.0, offline_after: int = 3,
                 backoff_s: float = 0.25, max_backoff_s: float = 8.0,
                 wait: Callable[[float], object] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        if rate_hz <= 0:
            raise ValueError("rate_hz must be positive")
        self._reader, self._emit = reader, emit
        self._reports_all = hasattr(reader, "poll_all")
        self.presence = presence or Presence()
        self._interval = 1 / rate_hz
        self._offline_after = offline_after
        self._backoff_s, self._max_backoff_s = backoff_s, max_backoff_s
        self._stopping = threading.Event()
        self._wait = wait or self._stopping.wait
        self._clock = clock
        self._behind_said = self._overran = False
        self.polls = 0                    # polls made, failed ones included
        self._thread: threading.Thread | None = None
        self.errors = 0                   # failed polls since start
        self.failures_in_a_row = 0
        self.online = True
        self._crowded = False
        self._calm_polls = 0

    def step(self) -> float:
        """One poll; returns how long after its start the next is due."""
        self.polls += 1
        try:
            scan = self._poll()
        except Exception as exc:          # a dead reader thread would go unnoticed
            return self._failed(exc)
        if self.failures_in_a_row:
            log.info("reader back after %d failed polls", self.failures_in_a_row)
        if not self.online:
            self.online = True
            self._emit(ReaderBack())
        self.failures_in_a_row = 0
        self._watch_crowd(scan)
        if self._reports_all:
            events = self.presence.see(scan.uids)
        else:                             # one card at a time: another means the first left
            events = self.presence.update(scan.uids[0] if scan.uids else None)
        for event in events:
            self._emit(event)
        return self._interval

    def _watch_crowd(self, scan: FieldScan) -> None:
        # One ReaderCrowded per spell. A reader that leaves the colliding cards in a
        # state that skips the next poll (the mfrc522 package) alternates crowded and
        # empty polls: the spell ends at a clean read of a card or a few empty polls.
        if scan.unresolved:
            if not self._crowded:
                self._emit(ReaderCrowded())
            self._crowded, self._calm_polls = True, 0
            return
        self._calm_polls += 1
        if scan.uids or self._calm_polls >= CROWD_ENDS_AFTER:
            self._crowded = False

    def _poll(self) -> FieldScan:
        if self._reports_all:
            scan: FieldScan = self._reader.poll_all()
            return scan
        return FieldScan.of(self._reader.poll())

    def _failed(self, exc: Exception) -> float:
        self.errors += 1
        self.failures_in_a_row += 1
        first = self.failures_in_a_row == 1
        if first and isinstance(exc, OSError):
            log.warning("reader poll failed: %s; retrying with backoff", exc)
        elif first:
            log.exception("reader poll raised an unexpected error")
        else:                             # the same outage: one line at most, no traceback
            log.debug("reader poll failed (%d in a row): %s", self.failures_in_a_row, exc)
        if self.online and self.failures_in_a_row >= self._offline_after:
            self.online = False
            log.warning("reader offline after %d failed polls: %s", self.failures_in_a_row, exc)
            self._emit(ReaderOffline(str(exc) or type(exc).__name__))
        return min(self._backoff_s * 2 ** (self.failures_in_a_row - 1), self._max_backoff_s)

    def run(self) -> None:
        """Poll until `stop()`; the thread's body."""
        due = self._clock()
        while not self._stopping.is_set():
            started = self._clock()
            delay = self.step()
            now = self._clock()
            # On schedule: one interval after the last due time. After a failure the
            # backoff counts from now, and a poll that overran starts the next at once.
            due = due + delay if not self.failures_in_a_row else now + delay
            overran = now - started > self._interval
            if overran and self._overran:   # (the first poll, which sets the chip up, may)
                self._fell_behind(now - started)
            self._overran = overran
            due = max(due, now)           # a late wake-up is caught up, not made up for
            if not self._stopping.is_set():
                self._wait(due - now)

    def _fell_behind(self, took: float) -> None:
        if not self._behind_said:
            self._behind_said = True
            log.warning("reader: a poll takes %.0f ms, longer than the %.0f ms of %g polls a "
                        "second; polling as fast as it can", 1000 * took, 1000 * self._interval,
                        1 / self._interval)

    @property
    def running(self) -> bool:
        """True while the thread is alive: the device can supervise it."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self.run, name="reader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
