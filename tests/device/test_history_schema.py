"""The history's schema version (PRAGMA user_version): a database of any older version is
brought forward when opened, keeping every game; one of a newer version is left as found."""
from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from device.cli import main
from device.storage.history import FILE, VERSION, open_history

from .test_history import three_games

# The schema as it was before it had a version (version 0), word for word.
UNVERSIONED = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,        -- the journal's id
    game       TEXT NOT NULL,           -- palourde, auberge, ...
    started    TEXT NOT NULL,           -- ISO 8601 wall clock, from the journal's header
    ended      TEXT,                    -- from the journal's end line
    duration_s REAL,
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
"""
GAME = ("old-1", "tamalou", "2023-01-01T20:00:00+01:00", "2023-01-01T20:40:00+01:00", 2400.0,
        '{"limit": 5}', "cafe", "Ann", 41, "000001-finished.jsonl")
PLAYERS = [("old-1", 1, "Ann", 5, 1), ("old-1", 2, "Bob", 13, 0)]


def unversioned_history(state_dir) -> None:
    """A history as the table wrote it before the schema had a version: a game whose journal
    the retention has dropped since, so the database alone holds it."""
    with closing(sqlite3.connect(state_dir / FILE)) as db, db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(UNVERSIONED)
        db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", GAME)
        db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?)", PLAYERS)
    assert version(state_dir) == 0


def version(state_dir) -> int:
    with closing(sqlite3.connect(state_dir / FILE)) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def test_an_unversioned_history_is_migrated_and_keeps_every_game(tmp_path, capsys):
    unversioned_history(tmp_path)
    with closing(open_history(tmp_path)) as history:
        (old,) = history.games()
        assert history.player("Ann") and history.player("Ann")[0].won == 1
    assert version(tmp_path) == VERSION >= 2
    assert (old.id, old.game, old.started, old.ended, old.duration_s, old.options, old.deck,
            old.first, old.events, old.journal) == GAME[:5] + ({"limit": 5},) + GAME[6:]
    assert [(p.seat, p.name, p.score, p.winner) for p in old.players] == [
        (1, "Ann", 5, True), (2, "Bob", 13, False)]
    with closing(sqlite3.connect(tmp_path / FILE)) as db:
        indexes = {row[1] for row in db.execute("PRAGMA index_list(players)")}
    assert "players_by_name" in indexes
    assert main(["history", "--player", "Ann", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "Ann tamalou: 1 played, 1 won\n"


def test_a_migrated_history_takes_the_archives_games_too_and_migrates_once(tmp_path):
    unversioned_history(tmp_path)
    three_games(tmp_path)                             # each finished game opens the history
    with closing(open_history(tmp_path)) as history:
        assert [g.game for g in history.games()] == ["tamalou", "palourde", "palourde", "palourde"]
    assert version(tmp_path) == VERSION


def test_a_new_history_starts_at_the_latest_version(tmp_path):
    with closing(open_history(tmp_path)):
        pass
    assert version(tmp_path) == VERSION


def test_a_history_of_a_newer_version_is_left_as_it_is(tmp_path, capsys):
    unversioned_history(tmp_path)
    with closing(sqlite3.connect(tmp_path / FILE)) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
        db.execute("ALTER TABLE games ADD COLUMN table_name TEXT")   # what a newer one may do
    before = (tmp_path / FILE).read_bytes()
    with pytest.raises(sqlite3.OperationalError, match="newer than this program"):
        open_history(tmp_path)
    assert main(["history", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"version {VERSION + 1} is newer" in err
    assert (tmp_path / FILE).read_bytes() == before
    assert not (tmp_path / "unreadable").exists()
