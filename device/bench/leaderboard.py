"""The dashboard's history at a busy café's size: a period's leaderboard read from 100,000
finished games (ten tables, five games, forty players, over a year and a half).

The games are written straight into the history's schema in one transaction, with the sums
`first` keeps (not a transaction each: the figure is the query's, not the filling's); the query
is the back office's own (device/fleet/backoffice/leaderboard.py), for this month's
leaderboard of one game, median of a few runs.
"""
from __future__ import annotations

import datetime
import statistics
import time
from pathlib import Path

GAMES = 100_000
KINDS = ("palourde", "auberge", "tribord", "tamalou", "flouk")
PLAYERS = [f"Player {n}" for n in range(40)]
LAST_DAY = datetime.date(2030, 6, 30)
DAYS = 540


def filled(directory: Path, games: int = GAMES):
    """A history of `games` games, made inside SQLite (a Python loop would take longer than
    everything else the bench does): game n at table n % 10, of kind n % 5, with 2 to 4 seats."""
    from device.fleet.backoffice.history import FILE, History
    directory.mkdir(parents=True, exist_ok=True)
    (directory / FILE).unlink(missing_ok=True)
    history = History(directory / FILE)
    kinds = " ".join(f"WHEN {n} THEN '{kind}'" for n, kind in enumerate(KINDS))
    numbers = f"WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {games - 1})"
    day = f"date('{LAST_DAY.isoformat()}', '-' || (i * {DAYS} / {games}) || ' days')"
    with history._lock:
        db = history.db
        db.execute("BEGIN")
        db.execute(f"""{numbers} INSERT INTO games SELECT 'table-' || (1 + i % 10), 'g' || i,
            {day} || 'T23:00:00+01:00', {day}, {day} || 'T21:00:00+01:00',
            CASE i % 5 {kinds} END, 'A game', 1200 FROM n""")
        db.execute(f"""WITH seat(s) AS (VALUES (0), (1), (2), (3))
            INSERT INTO seats SELECT g.tbl, g.game_id, s + 1,
                'Player ' || ((CAST(substr(g.game_id, 2) AS INTEGER) * 7 + s * 13) % {len(PLAYERS)}),
                1, s, s = CAST(substr(g.game_id, 2) AS INTEGER) % 2, g.game, g.day
            FROM games g JOIN seat ON s < 2 + CAST(substr(g.game_id, 2) AS INTEGER) % 3""")
        for sums, width in (("daily", 10), ("monthly", 7)):
            db.execute(f"INSERT INTO {sums} SELECT game, substr(day, 1, {width}), name, COUNT(*), "
                       "SUM(winner) FROM seats WHERE named = 1 GROUP BY 1, 2, 3")
        db.execute("COMMIT")
        db.execute("ANALYZE")
    return history


def leaderboard_figures(directory: Path, games: int = GAMES, runs: int = 7) -> dict:
    """This month's leaderboard of one game, and all time of every game, in milliseconds."""
    from device.fleet.backoffice.leaderboard import leaderboard
    history = filled(directory, games)
    try:
        figures = {}
        for name, game, period in (("month_one_game", "palourde", "month"), ("all_every_game", None, "all")):
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                leaderboard(history, game, period, LAST_DAY)
                times.append(time.perf_counter() - began)
            figures[name] = round(1000 * statistics.median(times), 2)
        return {**figures, "games": games}
    finally:
        history.close()
