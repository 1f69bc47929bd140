"""The finished games the dashboard has counted, by their id: each counts once, restarts
included. A small SQLite file (`fleet-finished.sqlite` in the dashboard's state dir), with
one job: say whether a table's game id is new.
"""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

FILE = "fleet-finished.sqlite"


class CountedGames:
    def __init__(self, path: Path | None) -> None:
        """`path` None keeps it in memory (a board in a test)."""
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:" if path is None else str(path),
                                   check_same_thread=False, timeout=5.0, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS counted (tbl TEXT NOT NULL, "
                         "game_id TEXT NOT NULL, received TEXT NOT NULL, "
                         "PRIMARY KEY (tbl, game_id))")

    @classmethod
    def at(cls, state_dir: Path) -> CountedGames:
        return cls(Path(state_dir) / FILE)

    def first(self, table: str, game_id: str, received: str) -> bool:
        """True the first time this table's game is heard (now kept), False ever after."""
        with self._lock:
            cursor = self._db.execute("INSERT OR IGNORE INTO counted VALUES (?, ?, ?)",
                                      (table, game_id, received))
            return cursor.rowcount == 1

    def close(self) -> None:
        with self._lock:
            self._db.close()
