"""The history of finished games, in SQLite (stdlib sqlite3, WAL), beside the journals.

The archived journals stay the source of truth. A game archived as finished is
added; at start, any finished journal the database misses (a power cut between
the archive and the insert) is added too; a damaged database is moved aside
(quarantine.py), never deleted, and rebuilt from the archived journals (a game whose journal the
retention already dropped is then gone from it).
"""
from __future__ import annotations

import datetime
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

TYPE_CHECKING = False               # as typing's, whose import `tabletop history` would pay
if TYPE_CHECKING:
    import logging

    from .journal import JournalError
    from .store import GameStore

# The journals, the engine that replays them, the quarantine and the logging module are
# imported where a journal is read or something goes wrong: `tabletop history` of a history
# in order (every archived game in it) starts without any of them.


def log() -> logging.Logger:
    import logging
    return logging.getLogger(__name__)


FILE = "history.sqlite"

# The schema, one step a version: a database's PRAGMA user_version says how many steps it has
# taken, and opening it takes the rest, each step in one transaction. Version 0 is a history
# written before the schema had a version: step 1's tables, with nothing else.
MIGRATIONS = ("""
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,        -- the journal's id
    game       TEXT NOT NULL,           -- palourde, auberge, ...
    started    TEXT NOT NULL,           -- ISO 8601 wall clock, from the journal (re-dated if set since)
    ended      TEXT,                    -- from the journal's end line
    duration_s REAL,                    -- played, to the last move: monotonic, from the journal
    options    TEXT NOT NULL,           -- the house rules, one JSON object
    deck       TEXT,
    first      TEXT,                    -- who started, when the setup said
    events     INTEGER NOT NULL,        -- accepted inputs
    journal    TEXT NOT NULL            -- the archived journal's file name
);
CREATE TABLE IF NOT EXISTS players (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,        -- 1, 2, ... clockwise, as the game was set up
    name       TEXT NOT NULL,
    score      INTEGER,
    winner     INTEGER NOT NULL,        -- 1 for each winner: a shared win counts for all
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS games_by_game ON games (game, started);
""", """
CREATE INDEX IF NOT EXISTS players_by_name ON players (name);   -- a player's games, by name
""")
VERSION = len(MIGRATIONS)

# The rows as read: named tuples, not dataclasses, whose module (and the inspect module it
# brings) would cost `tabletop history` more than half of the interpreter's own start-up.


class Player(NamedTuple):
    seat: int
    name: str
    score: int | None
    winner: bool


class Game(NamedTuple):
    id: str
    game: str
    started: str
    ended: str | None
    duration_s: float | None
    options: dict
    deck: str | None
    first: str | None
    events: int
    journal: str
    players: tuple[Player, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.winner)


class Stats(NamedTuple):
    game: str
    played: int
    average_s: float | None
    wins_by_seat: tuple[tuple[int, int], ...]     # (seat, games won from it)


class PlayerStats(NamedTuple):
    player: str                       # as seated: a roster name's short form
    game: str
    played: int
    won: int                          # a shared win counts for each winner


def finished_game(path: Path) -> Game | None:
    """The history entry of an archived journal; None if its game did not finish.
    JournalError if the journal is damaged, its header and end line included."""
    from engine.core.text import msg

    from . import journal
    from .journal import JournalError
    resumed = journal.resume(path)
    header, session = resumed.header, resumed.session
    spec, state = session.spec, session.state
    result = spec.result(state)
    if result is None:
        return None
    players = tuple(Player(seat, line.name, line.score, line.name in result.winners)
                    for seat, line in enumerate(spec.tally(state).players, 1))
    length, deck = journal.played(resumed), resumed.deck
    started, ended = length.started, resumed.end.get("at") if resumed.end else None
    if not isinstance(started, str) or not isinstance(deck, (str, type(None))):
        raise JournalError(msg("ui.journal_damaged", line=1))
    if not isinstance(ended, (str, type(None))):
        raise JournalError(msg("ui.journal_damaged", line=len(resumed.records) + 1))
    seconds = length.seconds if length.seconds is not None else _seconds(started, ended)
    return Game(game_id(header, path), spec.id, started, ended, seconds,
                dict(session.config.options), deck, session.first_player(),
                len(session.events), path.name, players)


def game_id(header: dict, path: Path) -> str:
    """A journal's id, or its file name for one without (an id of another type included)."""
    found = header.get("id")
    return found if isinstance(found, str) and found else path.name


def _seconds(start: str, end: str | None) -> float | None:
    """A journal written before the seconds played were kept: its wall-clock labels' span."""
    if end is None:
        return None
    try:
        return (datetime.datetime.fromisoformat(end) -
                datetime.datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None


def set_aside(state_dir: Path, path: Path, damaged: JournalError) -> None:
    """A damaged archived journal moved aside; the log says so unless the running table watches
    the quarantine and says it itself."""
    from engine.core.text import render

    from . import quarantine
    line = quarantine.refuse(state_dir, path, f"left out of the history: {render(damaged.reason)}")
    if not quarantine.watched(state_dir):
        log().error("%s", line)


class History:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def close(self) -> None:
        self.db.close()

    def add(self, path: Path) -> bool:
        """Add the finished game of an archived journal; False if unfinished or already there."""
        game = finished_game(path)
        if game is None:
            return False
        with self.db:
            added = self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.game, game.started, game.ended, game.duration_s,
                 json.dumps(game.options, sort_keys=True), game.deck, game.first, game.events,
                 game.journal)).rowcount
            if added:
                self.db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?)",
                                    [(game.id, p.seat, p.name, p.score, int(p.winner))
                                     for p in game.players])
        return bool(added)

    def sync(self, archive: Path) -> int:
        """Add every finished journal of the archive the database misses; how many were added."""
        known = {row[0] for row in self.db.execute("SELECT id FROM games")}
        added = 0
        for path in sorted(archive.glob("*-finished.jsonl")):
            from . import journal
            try:
                if game_id(journal.header(path), path) not in known:
                    added += self.add(path)
            except OSError as exc:
                log().error("%s left out of the history: %s", path.name, exc.strerror or exc)
            except journal.JournalError as exc:       # damaged: the running table sets it aside
                set_aside(archive.parent, path, exc)
        return added

    def games(self, game: str | None = None) -> list[Game]:
        """Finished games, oldest first; only those of `game` if given."""
        players: dict[str, list[Player]] = {}
        for game_id, seat, name, score, winner in self.db.execute(
                "SELECT game_id, seat, name, score, winner FROM players ORDER BY game_id, seat"):
            players.setdefault(game_id, []).append(Player(seat, name, score, bool(winner)))
        rows = self.db.execute(
            "SELECT id, game, started, ended, duration_s, options, deck, first, events, journal "
            "FROM games WHERE ?1 IS NULL OR game = ?1 ORDER BY started, journal", (game,))
        return [Game(id_, kind, started, ended, duration_s, json.loads(options), deck, first, events,
                     journal, tuple(players.get(id_, ())))
                for id_, kind, started, ended, duration_s, options, deck, first, events, journal in rows]

    def stats(self, game: str | None = None) -> list[Stats]:
        """Per game: games played, average duration, wins by seat."""
        wins: dict[str, list[tuple[int, int]]] = {}
        for name, seat, won in self.db.execute(
                "SELECT g.game, p.seat, SUM(p.winner) FROM players p JOIN games g ON g.id = p.game_id "
                "WHERE ?1 IS NULL OR g.game = ?1 GROUP BY g.game, p.seat ORDER BY g.game, p.seat",
                (game,)):
            wins.setdefault(name, []).append((seat, won))
        rows = self.db.execute(
            "SELECT game, COUNT(*), AVG(duration_s) FROM games WHERE ?1 IS NULL OR game = ?1 "
            "GROUP BY game ORDER BY game", (game,))
        return [Stats(name, played, average, tuple(wins.get(name, ())))
                for name, played, average in rows]

    def player(self, name: str, game: str | None = None) -> list[PlayerStats]:
        """Per game the player sat at: games played and won."""
        rows = self.db.execute(
            "SELECT g.game, COUNT(*), SUM(p.winner) FROM players p JOIN games g ON g.id = p.game_id "
            "WHERE p.name = ?1 AND (?2 IS NULL OR g.game = ?2) GROUP BY g.game ORDER BY g.game",
            (name, game))
        return [PlayerStats(name, kind, played, won) for kind, played, won in rows]


def open_history(state_dir: Path) -> History:
    """The state dir's history, checked and brought up to date with its archive."""
    path = state_dir / FILE
    state_dir.mkdir(parents=True, exist_ok=True)
    try:
        db = _connect(path)
    except sqlite3.OperationalError:
        raise                           # locked or unreadable: not damage, nothing to move
    except sqlite3.DatabaseError as exc:        # rebuilt from the archive: always moved
        from . import quarantine
        quarantine.refuse(state_dir, path, f"damaged database ({exc})", always=True)
        db = _connect(path)
        log().warning("history rebuilt from the archive")
    history = History(db)
    history.sync(state_dir / "archive")
    return history


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    try:
        (check,) = db.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            raise sqlite3.DatabaseError(check)
        # a history already there is checked before anything is written to it, so a damaged
        # one is kept aside exactly as it was found; a new one gets its tables
        schema_version(db)
        if db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]:
            _check(db)
        db.execute("PRAGMA journal_mode=WAL")
        migrate(db)
        db.execute("PRAGMA foreign_keys=ON")
    except sqlite3.DatabaseError:
        db.close()
        raise
    except UnicodeDecodeError:           # damaged text: in a row, or in what the check says
        db.close()
        raise sqlite3.DatabaseError("text in it is not UTF-8") from None
    return db


def schema_version(db: sqlite3.Connection) -> int:
    """The steps the database has taken. A history from a newer version is left as it is
    (OperationalError): its tables may differ and are no damage, and an older program must not
    touch them."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > VERSION:
        raise sqlite3.OperationalError(f"history schema version {version} is newer than this "
                                       f"program's {VERSION}: update the program")
    return version


def migrate(db: sqlite3.Connection) -> None:
    """Take the schema's steps this database has not taken yet, each in its own transaction."""
    version = schema_version(db)
    for step, script in enumerate(MIGRATIONS[version:], version + 1):
        # user_version is in the database's header, written by the step's own transaction
        db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {step};\nCOMMIT;")
        if step > 1:
            log().info("history schema moved to version %d", step)


COLUMNS = {"games": ["id", "game", "started", "ended", "duration_s", "options", "deck", "first",
                     "events", "journal"],
           "players": ["game_id", "seat", "name", "score", "winner"]}


def _check(db: sqlite3.Connection) -> None:
    """DatabaseError unless the tables are the schema's and hang together: a table dropped or
    emptied by hand leaves games without players or players without a game; every stored
    options value is a JSON object (UnicodeDecodeError for text that is not UTF-8)."""
    for table, columns in COLUMNS.items():
        found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        if found != columns:
            raise sqlite3.DatabaseError(f"table {table} has columns {found}")
    (orphans,) = db.execute(
        "SELECT (SELECT COUNT(*) FROM games WHERE id NOT IN (SELECT game_id FROM players)) + "
        "(SELECT COUNT(*) FROM players WHERE game_id NOT IN (SELECT id FROM games))").fetchone()
    if orphans:
        raise sqlite3.DatabaseError(f"{orphans} games or players without the other")
    for _ in db.execute("SELECT * FROM players"):      # each row read once: its text decodes
        pass
    options_at = COLUMNS["games"].index("options")
    for row in db.execute("SELECT * FROM games"):
        try:
            if not isinstance(json.loads(row[options_at]), dict):
                raise ValueError(row[options_at])
        except (TypeError, ValueError, RecursionError):
            raise sqlite3.DatabaseError("stored options are not a JSON object") from None


def update_history(state_dir: Path) -> None:
    """Bring the history up to date; a history that cannot be written never stops the table
    (the journals keep everything, and the next update catches up)."""
    try:
        with closing(open_history(state_dir)):
            pass
    except (sqlite3.Error, OSError) as exc:
        log().error("history not updated: %s", exc)


class Keeper:
    """The table's history, open while the table runs: checked and brought up to date with the
    archive once, as the table starts; then each finished game is one insert, so a game's end
    costs the same with 10 or 10,000 games in the history. A history that fails is let go and
    opened again (checked, caught up) at the next game's end."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.history: History | None = None
        self._open()

    def _open(self) -> None:
        try:
            self.history = open_history(self.state_dir)
        except (sqlite3.Error, OSError) as exc:
            log().error("history not updated: %s", exc)

    def finished(self, path: Path) -> None:
        if self.history is None:
            self._open()                  # its catching up adds this game too
            return
        from . import journal
        try:
            self.history.add(path)
            journal.stop_here("history")
        except journal.JournalError as exc:       # damaged: set aside, as the catching up would
            set_aside(self.state_dir, path, exc)
        except (sqlite3.Error, OSError) as exc:
            log().error("history not updated: %s", exc)
            self.close()

    def close(self) -> None:
        if self.history is not None:
            self.history.close()
            self.history = None


def keep_history(store: GameStore) -> Keeper:
    """Update the history now (games archived while nothing was watching) and add every
    finished game as it ends."""
    keeper = Keeper(store.dir)
    store.on_finished.append(keeper.finished)
    return keeper
