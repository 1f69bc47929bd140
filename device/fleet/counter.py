"""The publisher's counter: every message a machine signs carries a number larger than any
it signed before, so a receiver can refuse what it has already seen (envelope.py).

The counter is kept in the state dir as a ceiling reserved BLOCK at a time (a write per
block, not per message): after a restart it goes on above everything handed out. It also
never falls below the wall clock in milliseconds, so a table whose state dir was reinstalled
still starts above what receivers saw from it (as long as its clock has been set once).
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from device.paths import write_atomic
from device.storage.quarantine import refuse

log = logging.getLogger(__name__)

FILE = "fleet-counter.json"
BLOCK = 10_000


def wall_ms() -> int:
    return int(time.time() * 1000)


class Counter:
    def __init__(self, state_dir: Path, now_ms: Callable[[], int] = wall_ms) -> None:
        self.state_dir, self.path, self.now_ms = Path(state_dir), Path(state_dir) / FILE, now_ms
        self._lock = threading.Lock()
        self.ceiling = self._read()
        self.last = self.ceiling
        self.unkept = False

    def _read(self) -> int:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return 0
        except (OSError, ValueError, RecursionError) as exc:
            refuse(self.state_dir, self.path, exc)
            return 0
        ceiling = data.get("ceiling") if isinstance(data, dict) else None
        if isinstance(ceiling, bool) or not isinstance(ceiling, int) or ceiling < 0:
            refuse(self.state_dir, self.path, "not a counter")
            return 0
        return ceiling

    def next(self) -> int:
        """A number larger than any this state dir handed out, kept before it is used."""
        with self._lock:
            number = max(self.last + 1, self.now_ms())
            if number >= self.ceiling:
                self.ceiling = number + BLOCK
                try:
                    write_atomic(self.path, json.dumps({"ceiling": self.ceiling}))
                except OSError as exc:          # a full or read-only disk: the clock still leads
                    if not self.unkept:
                        log.error("fleet: %s not kept: %s", FILE, exc.strerror or exc)
                    self.unkept = True
            self.last = number
            return number
