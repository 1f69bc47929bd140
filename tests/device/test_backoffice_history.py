"""The dashboard's history: a month of finished games from ten tables, one of them offline for a
day and sending that day's games when back, the dashboard restarted mid-month and handed every
game again: each game counted once, and the leaderboards of every period are those counted
here by hand. The schema's versions, the older dashboard's counted ids, ties, the CSV, a
player's page and the HTTP contract."""
from __future__ import annotations

import csv
import datetime
import io
import sqlite3
from collections import Counter

import pytest

from device.fleet.backoffice import history as kept
from device.fleet.backoffice.history import History, HistoryError
from device.fleet.backoffice.leaderboard import as_csv, games, leaderboard, player_page
from device.fleet.dashboard.board import Board
from device.fleet.topics import encode, table_topic
from tests.device.backoffice_client import Staffer, serve

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou")
GAMES = ("palourde", "auberge", "flouk")
TABLES = [f"table-{n}" for n in range(1, 11)]
OFFLINE = ("table-7", datetime.date(2030, 1, 14))        # its games of that day come the next
RESTART = datetime.date(2030, 1, 20)
PER_DAY = 2                                               # games a table finishes an evening
TODAY = datetime.date(2030, 1, 31)                       # a Thursday: the week began on the 28th


def evening(day: datetime.date, hour: int) -> str:
    return f"{day.isoformat()}T{hour:02d}:30:00+01:00"


def played(day: datetime.date, t: int, k: int) -> dict:
    """Table t's k-th game of the day: who sat, who won (a shared win now and then, and an
    unnamed seat at some tables), all from the numbers, no randomness."""
    seats = 2 + (t + k) % 3
    names = [NAMES[(t * 5 + day.toordinal() + k * 7 + s * 3) % len(NAMES)] for s in range(seats)]
    names = list(dict.fromkeys(names))
    if t % 4 == 0:
        names[-1] = f"P{len(names)}"                      # a seat nobody named
    winners = names[: 2 if (t + day.day + k) % 7 == 0 else 1]
    return {"table": TABLES[t], "game_id": f"{day:%Y%m%d}-{k}", "at": evening(day, 19 + k),
            "game": GAMES[(t + k) % len(GAMES)], "title": "A game",
            "players": [{"name": n, "score": i} for i, n in enumerate(names)],
            "winners": winners, "seconds": 900}


def month() -> list[tuple[datetime.date, dict]]:
    """Every game of the month (and of the last days of December), with the day it arrives."""
    days = [datetime.date(2029, 12, 30) + datetime.timedelta(days=n) for n in range(33)]
    sent = []
    for day in days:
        for t in range(len(TABLES)):
            for k in range(PER_DAY):
                game = played(day, t, k)
                away = (game["table"], day) == OFFLINE
                sent.append((day + datetime.timedelta(days=1) if away else day, game))
    return sorted(sent, key=lambda pair: pair[0])


class Dashboard:
    """A board and its history on a state dir, its clock at the day it is given."""

    def __init__(self, state_dir) -> None:
        self.history = History.at(state_dir)
        self.day = datetime.date(2029, 12, 30)
        self.board = Board(day=lambda: self.day.isoformat(), clock=lambda: evening(self.day, 23))

    def hear(self, game: dict) -> None:
        self.board.counted = self.history
        self.board.receive(table_topic(game["table"], "finished"), encode(game))


def by_hand(sent: list[tuple[datetime.date, dict]], game: str | None, since: datetime.date | None) -> dict:
    """(games, wins) per named player, counted here from what the tables played."""
    counted: dict[str, list[int]] = {}
    for _, g in sent:
        if (game and g["game"] != game) or (since and g["at"][:10] < since.isoformat()):
            continue
        for p in g["players"]:
            if not (p["name"][0] == "P" and p["name"][1:].isdigit()):
                row = counted.setdefault(p["name"], [0, 0])
                row[0] += 1
                row[1] += p["name"] in g["winners"]
    return {name: tuple(row) for name, row in counted.items()}


def test_a_month_of_ten_tables_counts_each_game_once_across_a_restart_and_an_offline_day(tmp_path):
    sent = month()
    dashboard = Dashboard(tmp_path)
    for arrives, game in sent:
        if arrives >= RESTART:
            break
        dashboard.day = arrives
        dashboard.hear(game)
    dashboard.history.close()
    dashboard = Dashboard(tmp_path)                        # restarted: the broker sends it all again
    for arrives, game in sent:
        dashboard.day = max(arrives, RESTART)
        dashboard.hear(game)
    for again in sent[:50]:                               # and a few once more
        dashboard.hear(again[1])
    history = dashboard.history
    assert history.read("SELECT COUNT(*) FROM games")[0][0] == len(sent) == 33 * 10 * PER_DAY
    away = [g for _, g in sent if g["table"] == OFFLINE[0] and g["at"].startswith("2030-01-14")]
    late = history.read("SELECT game_id FROM games WHERE tbl = ? AND day = '2030-01-14' "
                        "AND received LIKE '2030-01-15%'", (OFFLINE[0],))
    assert sorted(r[0] for r in late) == sorted(g["game_id"] for g in away) and len(away) == PER_DAY
    periods = {"day": TODAY, "week": datetime.date(2030, 1, 28), "month": datetime.date(2030, 1, 1), "all": None}
    for game in (None, *GAMES):
        for period, since in periods.items():
            rows = leaderboard(history, game, period, TODAY)
            assert {r["player"]: (r["games"], r["wins"]) for r in rows} == by_hand(sent, game, since), \
                (game, period)
            assert [r["wins"] for r in rows] == sorted((r["wins"] for r in rows), reverse=True)
    assert not [r for r in leaderboard(history, None, "all", TODAY) if r["player"].startswith("P")]


def test_players_with_as_many_wins_share_a_rank():
    history = History(None)
    for n, (names, winners) in enumerate([(("Ann", "Bob"), ("Ann", "Bob")), (("Cy", "Ann"), ("Cy",)),
                                          (("Dee", "Bob"), ("Dee",)), (("Eli", "Fay"), ("Fay",))]):
        history.first("t1", f"g{n}", "2030-01-02T23:00:00+01:00", {
            "at": "2030-01-02T20:00:00+01:00", "game": "palourde", "title": "Palourde",
            "players": [{"name": p, "score": 0} for p in names], "winners": list(winners)})
    rows = leaderboard(history, "palourde", "day", datetime.date(2030, 1, 2))
    assert [(r["rank"], r["player"], r["games"], r["wins"]) for r in rows] == [
        (1, "Cy", 1, 1), (1, "Dee", 1, 1), (1, "Fay", 1, 1), (4, "Ann", 2, 1), (4, "Bob", 2, 1), (6, "Eli", 1, 0)]
    assert rows[3]["win_rate"] == 0.5


def test_the_schema_has_a_version_a_newer_one_is_refused_and_older_counted_ids_are_taken_over(tmp_path):
    older = sqlite3.connect(tmp_path / kept.COUNTED_BEFORE)
    older.execute("CREATE TABLE counted (tbl TEXT, game_id TEXT, received TEXT, PRIMARY KEY (tbl, game_id))")
    older.execute("INSERT INTO counted VALUES ('t1', 'g1', '2030-01-01T20:00:00+01:00')")
    older.commit()
    older.close()
    history = History.at(tmp_path)
    assert history.read("PRAGMA user_version")[0][0] == kept.VERSION
    assert not history.first("t1", "g1", "2030-01-02T20:00:00+01:00", played(datetime.date(2030, 1, 2), 1, 0))
    assert history.first("t1", "g2", "2030-01-02T20:00:00+01:00", played(datetime.date(2030, 1, 2), 1, 0))
    assert not (tmp_path / kept.COUNTED_BEFORE).exists()
    history.db.execute(f"PRAGMA user_version = {kept.VERSION + 1}")
    history.close()
    with pytest.raises(HistoryError, match="newer dashboard"):
        History.at(tmp_path)


def test_the_csv_has_a_row_a_seat_and_no_formula_from_a_table():
    history = History(None)
    history.first("t1", "g1", "2030-01-02T23:00:00+01:00", {
        "at": "2030-01-02T20:00:00+01:00", "game": "palourde", "title": "=HYPERLINK(\"x\")",
        "players": [{"name": "@Ann", "score": 3}, {"name": "Bob", "score": 1}], "winners": ["@Ann"]})
    rows = list(csv.reader(io.StringIO(as_csv(games(history, None, None)))))
    assert rows[0][:3] == ["day", "at", "table"] and len(rows) == 3
    assert rows[1][5] == "'=HYPERLINK(\"x\")" and rows[1][7] == "'@Ann" and rows[1][9] == "1"
    page = player_page(history, "Bob")
    assert (page["games"], page["wins"], page["last_played"]) == (1, 0, "2030-01-02")


def test_the_http_contract_of_the_leaderboard_and_the_history(tmp_path):
    history = History(None)
    sent = [g for _, g in month()]
    for game in sent:
        history.first(game["table"], game["game_id"], game["at"], game)
    server, _, _ = serve(tmp_path, history=history, today=TODAY)
    try:
        staffer = Staffer(server)
        assert staffer.get("/admin/api/leaderboard?game=palourde&period=month")[0] == 401
        assert staffer.login() == 200
        status, board = staffer.get("/admin/api/leaderboard?game=palourde&period=month")
        assert status == 200 and {r["player"]: (r["games"], r["wins"]) for r in board["rows"]} == \
            by_hand([(None, g) for g in sent], "palourde", datetime.date(2030, 1, 1))
        assert staffer.get("/admin/api/leaderboard?period=year")[0] == 400
        status, found = staffer.get("/admin/api/history?from=2030-01-14&to=2030-01-14")
        assert status == 200 and len(found["games"]) == 10 * PER_DAY
        assert Counter(g["day"] for g in found["games"]) == {"2030-01-14": 10 * PER_DAY}
        assert staffer.get("/admin/api/history?from=14/01/2030")[0] == 400
        status, text, headers = staffer.ask("GET", "/admin/api/history.csv?from=2030-01-31")
        assert status == 200 and headers["content-type"].startswith("text/csv") and text.count("\n") > 30
        status, page = staffer.get("/admin/api/player?name=Ann")
        assert status == 200 and page["games"] == sum(
            1 for g in sent for p in g["players"] if p["name"] == "Ann")
    finally:
        server.close()


def test_a_database_of_the_first_schema_is_migrated_and_its_games_ranked(tmp_path):
    """A history written before the leaderboards' sums: opening it takes the next step, in one
    transaction, and the sums come from the games it holds."""
    old = sqlite3.connect(tmp_path / kept.FILE)
    old.executescript(kept.MIGRATIONS[0] + "PRAGMA user_version = 1;")
    game = played(datetime.date(2030, 1, 2), 1, 0)
    named = [p["name"] for p in game["players"]]
    old.execute("INSERT INTO games VALUES ('t1', 'g1', '2030-01-02T23:00:00+01:00', '2030-01-02', "
                "'2030-01-02T20:00:00+01:00', 'palourde', 'Palourde', 900)")
    old.executemany("INSERT INTO seats VALUES ('t1', 'g1', ?, ?, 1, 0, ?, 'palourde', '2030-01-02')",
                    [(n, name, int(name in game["winners"])) for n, name in enumerate(named, 1)])
    old.commit()
    old.close()
    history = History.at(tmp_path)
    assert history.read("PRAGMA user_version")[0][0] == kept.VERSION == 2
    rows = leaderboard(history, "palourde", "month", datetime.date(2030, 1, 20))
    assert {r["player"]: (r["games"], r["wins"]) for r in rows} == {
        name: (1, int(name in game["winners"])) for name in named}
