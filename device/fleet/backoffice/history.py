"""Every finished game the dashboard hears, kept in SQLite: `dashboard-history.sqlite` in its
state dir (stdlib sqlite3, WAL).

It is also what says a game is new: a table's game id is taken once, ever (`first`), so a game
the broker delivers twice, a table that comes back online and sends what it played while
away, and a dashboard restarted and handed the same games again each count once. A game's
day is the table's own date for it (when it was played, whenever it arrives); seats nobody
named (P1, P2, ...) are kept but never ranked (two tables' P2 are two people).

The schema takes one step a version, as the table's own history does: PRAGMA user_version
says how many steps a database has taken, and opening it takes the rest, each in one
transaction. The ids an older dashboard counted (`fleet-finished.sqlite`) are taken over at
the first start, so none of them is counted again.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

from device.players.roster import unnamed

log = logging.getLogger(__name__)

FILE = "dashboard-history.sqlite"
COUNTED_BEFORE = "fleet-finished.sqlite"      # an older dashboard's ids, taken over once

MIGRATIONS = ("""
CREATE TABLE IF NOT EXISTS games (
    tbl       TEXT NOT NULL,                -- the table's name
    game_id   TEXT NOT NULL,                -- the table's id for the game: once per table
    received  TEXT NOT NULL,                -- ISO 8601, the dashboard's clock
    day       TEXT,                         -- YYYY-MM-DD, the table's date for the game
    at        TEXT,                         -- ISO 8601, the table's clock at its end
    game      TEXT,                         -- palourde, auberge, ...; NULL: counted, not kept
    title     TEXT,
    seconds   INTEGER,
    PRIMARY KEY (tbl, game_id)
);
CREATE TABLE IF NOT EXISTS seats (
    tbl       TEXT NOT NULL,
    game_id   TEXT NOT NULL,
    seat      INTEGER NOT NULL,             -- 1, 2, ... as the table listed them
    name      TEXT NOT NULL,
    named     INTEGER NOT NULL,             -- 0 for a seat nobody named (P1, P2, ...)
    score     INTEGER,
    winner    INTEGER NOT NULL,             -- 1 for each winner: a shared win counts for all
    game      TEXT NOT NULL,                -- the game's, again: a leaderboard reads seats only
    day       TEXT NOT NULL,
    PRIMARY KEY (tbl, game_id, seat),
    FOREIGN KEY (tbl, game_id) REFERENCES games (tbl, game_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS games_by_day ON games (day);
CREATE INDEX IF NOT EXISTS seats_ranked ON seats (game, day, named, name, winner);
CREATE INDEX IF NOT EXISTS seats_by_name ON seats (name, day);
""", """
-- the leaderboards' sums, kept as each game comes: a period's board reads a few hundred rows
-- however long the history (a day's and a week's from daily, a month's and all time's from monthly)
CREATE TABLE IF NOT EXISTS daily (
    game TEXT NOT NULL, day TEXT NOT NULL, name TEXT NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL,
    PRIMARY KEY (game, day, name)
);
CREATE TABLE IF NOT EXISTS monthly (
    game TEXT NOT NULL, month TEXT NOT NULL, name TEXT NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL,
    PRIMARY KEY (game, month, name)
);
CREATE INDEX IF NOT EXISTS daily_by_day ON daily (day);
CREATE INDEX IF NOT EXISTS monthly_by_month ON monthly (month);
INSERT INTO daily SELECT game, day, name, COUNT(*), SUM(winner) FROM seats WHERE named = 1
    GROUP BY game, day, name;
INSERT INTO monthly SELECT game, substr(day, 1, 7), name, COUNT(*), SUM(winner) FROM seats
    WHERE named = 1 GROUP BY game, substr(day, 1, 7), name;
""")
VERSION = len(MIGRATIONS)


class HistoryError(Exception):
    """The database is newer than this dashboard, or unreadable: said in one line."""


class History:
    def __init__(self, path: Path | None) -> None:
        """`path` None keeps it in memory (a board in a test)."""
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self.db = sqlite3.connect(":memory:" if path is None else str(path),
                                  check_same_thread=False, timeout=5.0, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # a commit survives the dashboard's end; a power cut may lose the last ones, which are
        # then taken as new when the broker hands them again (never twice)
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    @classmethod
    def at(cls, state_dir: Path) -> History:
        history = cls(Path(state_dir) / FILE)
        history.take_over(Path(state_dir) / COUNTED_BEFORE)
        return history

    def _migrate(self) -> None:
        with self._lock:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise HistoryError(f"{self.path}: made by a newer dashboard (schema {version}, "
                                   f"this one knows {VERSION})")
            for step in range(version, VERSION):
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(MIGRATIONS[step]):
                        self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {step + 1}")
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise

    def take_over(self, older: Path) -> int:
        """The ids an older dashboard counted, counted here too (once: then the file goes)."""
        if not older.is_file():
            return 0
        try:
            with sqlite3.connect(str(older)) as old:
                rows = old.execute("SELECT tbl, game_id, received FROM counted").fetchall()
        except sqlite3.Error as exc:
            log.warning("dashboard: %s not read (%s): its games may count again", older, exc)
            return 0
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR IGNORE INTO games (tbl, game_id, received) "
                                "VALUES (?, ?, ?)", rows)
            self.db.execute("COMMIT")
        older.rename(older.with_name(older.name + ".taken"))
        log.info("dashboard: %d counted games taken over from %s", len(rows), older.name)
        return len(rows)

    def first(self, table: str, game_id: str, received: str, game: dict | None = None) -> bool:
        """True the first time this table's game is heard (now kept), False ever after."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                day = (game.get("at") or received)[:10] if game else None
                taken = self.db.execute(
                    "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table, game_id, received, day, game and game.get("at"),
                     game and (game.get("game") or "?"), game and game.get("title"),
                     game and game.get("seconds"))).rowcount == 1
                if taken and game and day:
                    self._seat(table, game_id, game, day)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return taken

    def _seat(self, table: str, game_id: str, game: dict, day: str) -> None:
        """The game's seats, and each named one in the leaderboards' sums."""
        winners, kind = set(game.get("winners") or ()), game.get("game") or "?"
        seats = [(table, game_id, seat, p["name"], int(not unnamed(p["name"])), p.get("score"),
                  int(p["name"] in winners), kind, day)
                 for seat, p in enumerate(game.get("players") or (), start=1)]
        self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
        for sums, when in (("daily", day), ("monthly", day[:7])):
            self.db.executemany(
                f"INSERT INTO {sums} VALUES (?, ?, ?, 1, ?) ON CONFLICT DO UPDATE SET "
                "games = games + 1, wins = wins + excluded.wins",
                [(kind, when, name, winner) for _, _, _, name, named, _, winner, _, _ in seats if named])

    def read(self, query: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self.db.execute(query, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self.db.close()


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (executescript would commit on its own)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    return [s for s in statements if s]
