"""Idle CPU of the two read loops, each on its own simulated MFRC522 with an empty field.

Ours is `hardware.reader_loop.ReaderLoop` at its default poll rate over the RC522
driver; the peer is the `mfrc522` package's read loop (`hardware.mfrc522_peer`), which
polls without ever sleeping. Both run for the same wall time, each charged only the
CPU time of the thread it runs on.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hardware.errors import ReaderError
from hardware.fake_rc522 import FakeMFRC522
from hardware.mfrc522_peer import run_read_loop
from hardware.rc522 import RC522
from hardware.reader_loop import ReaderLoop


def _percent_of_a_core(body: Callable[[], None], stop: Callable[[], None],
                       seconds: float) -> float:
    """Run `body` on a thread for `seconds` of wall time; its CPU time as % of that."""
    used: list[float] = []

    def timed() -> None:
        start = time.thread_time()
        body()
        used.append(time.thread_time() - start)

    thread = threading.Thread(target=timed, name="bench-reader", daemon=True)
    wall = time.perf_counter()
    thread.start()
    time.sleep(seconds)            # the loop under test runs meanwhile: nothing to wait on
    stop()
    thread.join()
    return 100 * used[0] / (time.perf_counter() - wall)


def ours(seconds: float) -> float:
    """Our reader thread, default rate, no card on the reader."""
    loop = ReaderLoop(RC522(FakeMFRC522()), lambda event: None)
    return _percent_of_a_core(loop.run, loop.stop, seconds)


def peer(seconds: float) -> tuple[float | None, str | None]:
    """The mfrc522 package's loop on this thread, or None and why when it is not installed."""
    try:
        run = run_read_loop(FakeMFRC522(), seconds)
    except ReaderError as exc:
        return None, str(exc)
    return 100 * run.cpu_s / run.wall_s, None
