"""The history of finished games: filled from the archive, rebuilt when damaged, read by
`tabletop history` and by the device's Statistics screen."""
from __future__ import annotations

import csv
import io
import json
import sqlite3
from contextlib import closing

import pytest

import engine
from device.cli import main
from device.sim.clock import VirtualClock
from device.storage.history import FILE, keep_history, open_history
from device.storage.store import GameStore
from engine import Session, Tap, make_config

from .table import SimTable

NOW = "2024-05-04T20:00:00+02:00"
CARDS = ("clam#1", "clam#2", "high_tide#1", "high_tide#2", "high_tide#3")   # the starter wins 2-0-0


def play_to_the_end(store: GameStore, starter: str, minutes: int = 30, players=("Ann", "Bob", "Cy")):
    """A short Palourde game started by `starter`, who wins it; archived as finished."""
    spec = engine.get("palourde")
    session = Session(spec, make_config(spec, players, first=starter, options={"tie_rule": "shared"}))
    clock = store.clock
    assert isinstance(clock, VirtualClock)
    clock.set_wall(NOW)
    store.start(session, "sim-palourde")
    for number, card in enumerate(CARDS, 1):
        clock.advance(minutes * 60 / len(CARDS))
        session.play(Tap(card))
        store.record("event", Tap(card), session.state, number)
    return store.finish(abandoned=False)


def three_games(state_dir) -> GameStore:
    store = GameStore(state_dir, clock=VirtualClock())
    keeper = keep_history(store)
    play_to_the_end(store, "Ann", 30)
    play_to_the_end(store, "Ann", 20)
    play_to_the_end(store, "Bob", 10)
    store.start(Session(engine.get("palourde"), make_config(engine.get("palourde"), ["A", "B"])),
                None)
    store.finish(abandoned=True)
    keeper.close()                                    # the table stops
    return store


def test_a_finished_game_is_saved_with_players_scores_winners_and_times(tmp_path):
    three_games(tmp_path)
    with closing(open_history(tmp_path)) as history:
        games = history.games()
    assert len(games) == 3                            # the abandoned game is not history
    first = games[0]
    assert (first.game, first.deck, first.first, first.events) == ("palourde", "sim-palourde", "Ann", 5)
    assert (first.started, first.ended, first.duration_s) == (NOW, "2024-05-04T20:30:00+02:00", 1800)
    assert [(p.seat, p.name, p.score, p.winner) for p in first.players] == [
        (1, "Ann", 2, True), (2, "Bob", 0, False), (3, "Cy", 0, False)]
    assert first.options["tie_rule"] == "shared" and first.winners == ("Ann",)
    assert games[2].winners == ("Bob",)


def test_statistics_count_games_average_length_and_wins_by_seat(tmp_path):
    three_games(tmp_path)
    with closing(open_history(tmp_path)) as history:
        (stats,) = history.stats()
        assert history.stats("tamalou") == []
    assert (stats.game, stats.played, stats.average_s) == ("palourde", 3, 1200)
    assert stats.wins_by_seat == ((1, 2), (2, 1), (3, 0))


def test_games_archived_while_no_history_watched_are_added_once(tmp_path):
    store = GameStore(tmp_path, clock=VirtualClock())                     # no history kept while these end
    play_to_the_end(store, "Ann")
    play_to_the_end(store, "Cy")
    with closing(open_history(tmp_path)) as history:
        assert len(history.games()) == 2
        assert history.sync(tmp_path / "archive") == 0


def test_a_damaged_database_is_kept_aside_and_rebuilt_from_the_journals(tmp_path, caplog):
    three_games(tmp_path)
    with closing(open_history(tmp_path)) as history:
        before = history.games()
    (tmp_path / FILE).write_bytes(b"not a database, just garbage " * 500)
    with closing(open_history(tmp_path)) as history:
        assert history.games() == before
    kept = tmp_path / "unreadable" / "000001-history.sqlite"
    assert kept.read_bytes().startswith(b"not a database")
    assert "kept aside" in caplog.text
    with closing(sqlite3.connect(tmp_path / FILE)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def history(tmp_path, capsys, *args: str) -> tuple[int, str]:
    code = main(["history", "--state-dir", str(tmp_path), *args])
    return code, capsys.readouterr().out


def test_cli_lists_games_as_text_or_csv_filtered_by_game(tmp_path, capsys):
    three_games(tmp_path)
    code, out = history(tmp_path, capsys)
    assert code == 0
    assert out.splitlines()[0] == "2024-05-04 20:00  palourde   30 min  Ann 2*  Bob 0  Cy 0"
    rows = list(csv.DictReader(io.StringIO(history(tmp_path, capsys, "--csv")[1])))
    assert [r["winners"] for r in rows] == ["Ann", "Ann", "Bob"]
    assert rows[0]["players"] == "Ann;Bob;Cy" and rows[0]["scores"] == "2;0;0"
    assert json.loads(rows[0]["options"])["tie_rule"] == "shared"
    assert history(tmp_path, capsys, "--game", "tamalou")[1] == "No finished game yet.\n"


def test_cli_stats_and_an_unknown_game(tmp_path, capsys):
    three_games(tmp_path)
    assert history(tmp_path, capsys, "--stats")[1] == (
        "palourde: 3 played, average 20 min; wins by seat 1:2 2:1 3:0\n")
    assert history(tmp_path, capsys, "--game", "chess")[0] == 2


def test_an_unnamed_seat_is_no_one_player_across_games(tmp_path, capsys):
    """P2 sat Bob's place in one game and Cy's in another: asking for P2 says why there is no
    such player, and names still count."""
    store = GameStore(tmp_path, clock=VirtualClock())
    keeper = keep_history(store)
    play_to_the_end(store, "P1", players=("P1", "P2", "P3"))
    play_to_the_end(store, "P2", players=("P1", "P2"))
    play_to_the_end(store, "Ann")
    keeper.close()
    for language, words in (("en", "P2 is how a seat nobody named is called"),
                            ("fr", "P2 est le nom d'une place sans nom")):
        code = main(["--language", language, "history", "--player", "P2", "--json",
                     "--state-dir", str(tmp_path)])
        said = capsys.readouterr()
        assert (code, said.out) == (2, "") and said.err.startswith(words), said
    assert history(tmp_path, capsys, "--player", "Ann") == (0, "Ann palourde: 1 played, 1 won\n")


def open_statistics(table: SimTable) -> None:
    """Hold SELECT, then DOWN to Statistics (wherever the menu has it) and SELECT."""
    table.run("hold select")
    while table.app.mode.menu.key != "stats":
        table.run("press down")
    table.run("press select")


def test_the_global_menu_shows_this_games_statistics(tmp_path):
    three_games(tmp_path)
    table = SimTable(tmp_path).start("palourde", "Ann,Bob,Cy")
    open_statistics(table)
    assert (table.screen.header, table.screen.header_right) == ("PALOURDE", "Statistics")
    assert table.screen.lines == ("Games played: 3", "Average: 20 min", "Wins by seat:",
                                  "1:2 2:1 3:0")
    table.run("press select")
    assert table.screen.header_right == "Tide 0/3"


def test_statistics_say_so_when_there_is_no_finished_game(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bob")
    open_statistics(table)
    assert table.screen.lines == ("No finished game", "yet")


@pytest.mark.parametrize("damage", [
    "DROP TABLE players", "DROP TABLE games", "DELETE FROM players",
    "UPDATE games SET options = '[[[1]]]'", "UPDATE games SET options = 'not json'",
    "ALTER TABLE games DROP COLUMN deck"])
def test_a_dropped_emptied_or_mistyped_table_is_kept_aside_and_rebuilt_with_every_player(
        tmp_path, damage):
    three_games(tmp_path)
    with closing(open_history(tmp_path)) as history:
        whole = history.games()
    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute(damage)
    db.commit()
    db.close()
    with closing(open_history(tmp_path)) as history:
        assert history.games() == whole and all(len(g.players) == 3 for g in whole)
    assert list((tmp_path / "unreadable").glob("*-history.sqlite"))
