"""The reader loop: rate, errors, backoff, offline and back, on a scripted reader."""
from __future__ import annotations

import logging
import queue

import pytest

from hardware.errors import ReaderError
from hardware.events import Placed, ReaderBack, ReaderCrowded, ReaderOffline, Removed
from hardware.iso14443 import FieldScan
from hardware.presence import Presence
from hardware.reader_loop import ReaderLoop
from hardware.sim import SimReader

A, B = "04A22B91", "04112233445566"


class Script:
    """A reader that plays a list of results: a UID, None, or an exception to raise."""

    def __init__(self, *results):
        self.results = list(results)

    def poll(self):
        result = self.results.pop(0) if self.results else None
        if isinstance(result, Exception):
            raise result
        return result


class VirtualClock:
    """Time that passes only when slept through (or `spend` on a poll)."""

    def __init__(self):
        self.now, self.sleeps = 0.0, []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds

    def spend(self, seconds):
        self.now += seconds


def steps(loop, count):
    return [loop.step() for _ in range(count)]


def test_polls_at_the_configured_rate_and_reports_taps():
    events = []
    loop = ReaderLoop(Script(A, A, None), events.append, rate_hz=20,
                      presence=Presence(misses=1))
    assert steps(loop, 3) == [0.05, 0.05, 0.05]
    assert events == [Placed(A), Removed(A)]


def test_failures_back_off_go_offline_and_come_back():
    events = []
    error = ReaderError("no RC522 answers on SPI")
    loop = ReaderLoop(Script(error, error, error, error, None), events.append,
                      offline_after=3, backoff_s=0.25, max_backoff_s=0.6)
    assert steps(loop, 5) == [0.25, 0.5, 0.6, 0.6, 0.05]
    assert events == [ReaderOffline("no RC522 answers on SPI"), ReaderBack()]
    assert loop.errors == 4 and loop.online


def test_a_single_glitch_is_counted_but_not_reported():
    events = []
    loop = ReaderLoop(Script(A, OSError(5, "EIO"), A), events.append)
    steps(loop, 3)
    assert events == [Placed(A)] and loop.errors == 1


def test_an_unexpected_exception_does_not_kill_the_loop():
    events = []
    loop = ReaderLoop(Script(ValueError("bug"), A), events.append, offline_after=1)
    steps(loop, 2)
    assert events == [ReaderOffline("bug"), ReaderBack(), Placed(A)]


def test_a_card_that_stays_through_an_outage_is_not_a_new_tap():
    events = []
    loop = ReaderLoop(Script(A, OSError("x"), OSError("x"), A), events.append, offline_after=2)
    steps(loop, 4)
    assert events == [Placed(A), ReaderOffline("x"), ReaderBack()]


def test_rate_must_be_positive():
    with pytest.raises(ValueError):
        ReaderLoop(Script(), print, rate_hz=0)


def test_the_thread_delivers_into_a_queue_and_stops_promptly():
    reader = SimReader()
    reader.place(A)
    events = queue.Queue()
    clock = VirtualClock()
    loop = ReaderLoop(reader, events.put, wait=clock.sleep, clock=clock)   # no real sleeping
    loop.start()
    assert events.get(timeout=30) == Placed(A)
    reader.lift()
    assert events.get(timeout=30) == Removed(A)
    loop.stop()
    assert {round(wait, 9) for wait in clock.sleeps} == {0.05}


def test_stop_interrupts_the_wait_between_polls():
    loop = ReaderLoop(Script(), print, rate_hz=0.01)            # 100 s between polls
    loop.start()
    assert loop.running
    loop.stop(timeout=30)
    assert not loop.running


class Scans:
    """A reader reporting every card in its field: plays a list of FieldScans or exceptions."""

    def __init__(self, *results):
        self.results = list(results)

    def poll_all(self):
        result = self.results.pop(0) if self.results else FieldScan()
        if isinstance(result, Exception):
            raise result
        return result

    def poll(self):
        raise AssertionError("a reader with poll_all is asked for every card")


def test_every_card_of_a_poll_goes_to_presence():
    events = []
    loop = ReaderLoop(Scans(FieldScan((A,)), FieldScan((A, B)), FieldScan((A, B))), events.append)
    steps(loop, 3)
    assert events == [Placed(A), Placed(B)]


def test_cards_that_cannot_be_told_apart_are_reported_once_per_spell():
    events = []
    crowded = FieldScan((), unresolved=True)
    loop = ReaderLoop(Scans(crowded, crowded, FieldScan((A,)), crowded), events.append)
    steps(loop, 4)
    assert events == [ReaderCrowded(), Placed(A), ReaderCrowded()]


def test_an_outage_is_logged_when_it_starts_goes_offline_and_ends(caplog):
    error = ReaderError("serial port gone")
    loop = ReaderLoop(Script(*[error] * 10, A), lambda event: None, offline_after=3)
    with caplog.at_level(logging.DEBUG, logger="hardware.reader_loop"):
        steps(loop, 11)
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert loud == ["reader poll failed: serial port gone; retrying with backoff",
                    "reader offline after 3 failed polls: serial port gone",
                    "reader back after 10 failed polls"]


def test_an_unexpected_error_logs_its_traceback_once_per_outage(caplog):
    class NotAnOSError(Exception):
        pass
    loop = ReaderLoop(Script(*[NotAnOSError("termios")] * 5), lambda event: None)
    with caplog.at_level(logging.DEBUG, logger="hardware.reader_loop"):
        steps(loop, 5)
    assert len([r for r in caplog.records if r.exc_info]) == 1


def test_a_reader_alternating_crowded_and_empty_polls_is_one_spell():
    events = []
    crowded = FieldScan((), unresolved=True)
    polls = [crowded, FieldScan()] * 5 + [FieldScan()] * 3 + [crowded]
    loop = ReaderLoop(Scans(*polls), events.append)
    steps(loop, len(polls))
    assert events == [ReaderCrowded(), ReaderCrowded()]


def test_a_single_card_reader_alternating_between_two_cards_is_one_tap_per_card():
    events = []
    loop = ReaderLoop(Script(*[A, B] * 10), events.append)
    steps(loop, 20)
    assert [event for event in events if isinstance(event, Placed)] == [Placed(A), Placed(B)]


class Slow:
    """A reader whose polls take `seconds` each on `clock`, and stops the loop after `polls`."""

    def __init__(self, clock, seconds, polls):
        self.clock, self.seconds, self.polls, self.loop = clock, seconds, polls, None
        self.started = []

    def poll_all(self):
        self.started.append(self.clock.now)
        self.clock.spend(self.seconds)
        if len(self.started) == self.polls:
            self.loop.stop(timeout=0)
        return FieldScan((A,))


@pytest.mark.parametrize("poll_s", [0.001, 0.013, 0.049])
def test_polls_keep_a_fixed_schedule_whatever_a_poll_takes(poll_s):
    clock = VirtualClock()
    reader = Slow(clock, poll_s, polls=200)
    reader.loop = loop = ReaderLoop(reader, lambda event: None, rate_hz=20, wait=clock.sleep,
                                    clock=clock)
    loop.run()
    # every poll starts on the 50 ms grid: no drift, 20 polls a second
    assert reader.started == pytest.approx([0.05 * n for n in range(200)])


def test_polls_longer_than_the_interval_follow_each_other_and_it_is_said_once(caplog):
    clock = VirtualClock()
    reader = Slow(clock, 0.08, polls=50)
    reader.loop = loop = ReaderLoop(reader, lambda event: None, rate_hz=20, wait=clock.sleep,
                                    clock=clock)
    with caplog.at_level(logging.INFO, logger="hardware.reader_loop"):
        loop.run()
    assert reader.started == pytest.approx([0.08 * n for n in range(50)])   # back to back
    said = [r.getMessage() for r in caplog.records]
    assert said == ["reader: a poll takes 80 ms, longer than the 50 ms of 20 polls a second; "
                    "polling as fast as it can"]


def test_after_a_failure_the_backoff_counts_from_the_failed_poll():
    clock = VirtualClock()
    results = iter([A, OSError("x"), A, A])
    starts = []

    class Flaky:
        def poll(self):
            starts.append(clock.now)
            clock.spend(0.01)
            result = next(results)
            if len(starts) == 4:
                loop.stop(timeout=0)
            if isinstance(result, Exception):
                raise result
            return result

    loop = ReaderLoop(Flaky(), lambda event: None, rate_hz=20, backoff_s=0.25, wait=clock.sleep,
                      clock=clock)
    loop.run()
    assert starts == pytest.approx([0.0, 0.05, 0.31, 0.36])
