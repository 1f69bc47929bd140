"""What a receiver has seen: the highest counter per publisher and topic, on disk.

A signed message that is not newer than what its publisher last said on its topic is a
replay, or a reordering: refused. The same message heard again (a retained one at each
subscription, a QoS 1 repeat: the same counter and the same bytes) is a repeat, which a
receiver may show again but never acts on anew. Kept in a small SQLite file so a restart
forgets nothing; writes are a few a second at the dashboard and rare on a table.
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

FILE = "fleet-seen.sqlite"
NEW, REPEAT, STALE = "new", "repeat", "stale"


def digest(payload: bytes) -> str:
    return hashlib.blake2b(payload, digest_size=16).hexdigest()


class Freshness:
    def __init__(self, path: Path | None) -> None:
        """`path` None keeps it in memory (a one-shot command that takes nothing)."""
        self._lock = threading.Lock()
        self._unkept: dict[tuple[str, str], tuple[int, str]] = {}
        where = ":memory:" if path is None else str(path)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(where, check_same_thread=False, timeout=5.0,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS seen (publisher TEXT NOT NULL, "
                         "topic TEXT NOT NULL, counter INTEGER NOT NULL, digest TEXT NOT NULL, "
                         "PRIMARY KEY (publisher, topic))")

    @classmethod
    def at(cls, state_dir: Path) -> Freshness:
        """The state dir's; in memory, said in one line, where it cannot be kept there (a
        read-only or full disk): replays are still refused until the next start."""
        try:
            return cls(Path(state_dir) / FILE)
        except (sqlite3.Error, OSError) as exc:
            log.error("fleet: %s not kept in %s: %s", FILE, state_dir, exc)
            return cls(None)

    def admit(self, publisher: str, topic: str, counter: int, payload: bytes) -> str:
        """NEW (now the highest, kept), REPEAT (the very message last taken) or STALE."""
        mark = digest(payload)
        with self._lock:
            row = self._unkept.get((publisher, topic)) or self._db.execute(
                "SELECT counter, digest FROM seen WHERE publisher = ? AND topic = ?",
                (publisher, topic)).fetchone()
            if row is not None and counter <= row[0]:
                return REPEAT if counter == row[0] and mark == row[1] else STALE
            try:
                self._db.execute("INSERT OR REPLACE INTO seen VALUES (?, ?, ?, ?)",
                                 (publisher, topic, counter, mark))
            except sqlite3.Error as exc:     # a full disk: kept in memory until the next start
                if not self._unkept:
                    log.error("fleet: %s not written: %s", FILE, exc)
                self._unkept[(publisher, topic)] = (counter, mark)
            return NEW

    def highest(self, publisher: str, topic: str) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT counter FROM seen WHERE publisher = ? AND topic = ?",
                                   (publisher, topic)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
