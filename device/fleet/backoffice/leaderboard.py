"""What the history says: leaderboards per game and period, the games of a span of days, a
player's page, and the CSV of them. Periods are the café's calendar: today, this week (from
Monday), this month, and all time; a day is the table's date for the game.

A leaderboard ranks by wins, then win rate; players with as many wins from as many games share
a rank (1, 1, 3), and a win shared at a table counts for each winner. Only named seats are ranked.
"""
from __future__ import annotations

import csv
import datetime
import io

from .history import History

PERIODS = ("day", "week", "month", "all")
MOST_GAMES = 1000               # the games one history answer lists at most


class AskedWrong(ValueError):
    """A query's field that does not read: one line saying what it takes."""


def first_day(period: str, today: datetime.date) -> str | None:
    if period == "day":
        return today.isoformat()
    if period == "week":
        return (today - datetime.timedelta(days=today.weekday())).isoformat()
    if period == "month":
        return today.replace(day=1).isoformat()
    if period == "all":
        return None
    raise AskedWrong(f"a period is one of {', '.join(PERIODS)}")


def leaderboard(history: History, game: str | None, period: str, today: datetime.date) -> list[dict]:
    since = first_day(period, today)
    where: list[str] = ["1"]
    args: list[str] = []
    if game:
        where.append("game = ?")
        args.append(game)
    if period in ("day", "week"):
        sums = "daily"
        where.append("day >= ?")
        args.append(str(since))
    else:
        sums = "monthly"
        if since is not None:
            where.append("month = ?")
            args.append(since[:7])
    rows = history.read(f"SELECT name, SUM(games), SUM(wins) FROM {sums} WHERE {' AND '.join(where)} "
                        "GROUP BY name", tuple(args))
    rows.sort(key=lambda r: (-r[2], -r[2] / r[1], r[1], r[0].casefold()))
    ranked, rank = [], 0
    for n, (name, games, wins) in enumerate(rows):
        if n == 0 or (wins, games) != (rows[n - 1][2], rows[n - 1][1]):
            rank = n + 1
        ranked.append({"rank": rank, "player": name, "games": games, "wins": wins,
                       "win_rate": round(wins / games, 3)})
    return ranked


def day_of(text: str | None, what: str) -> str | None:
    if text in (None, ""):
        return None
    try:
        return datetime.date.fromisoformat(str(text)).isoformat()
    except ValueError:
        raise AskedWrong(f"{what} is a date: YYYY-MM-DD") from None


def games(history: History, since: str | None, until: str | None, player: str | None = None) -> list[dict]:
    """The kept games from `since` to `until` (days, both included), newest first."""
    where, args = ["g.game IS NOT NULL"], []
    if since:
        where.append("g.day >= ?")
        args.append(since)
    if until:
        where.append("g.day <= ?")
        args.append(until)
    if player:
        where.append("EXISTS (SELECT 1 FROM seats p WHERE p.tbl = g.tbl AND p.game_id = g.game_id "
                     "AND p.name = ?)")
        args.append(player)
    found = history.read(
        f"SELECT g.tbl, g.game_id, g.day, g.at, g.received, g.game, g.title, g.seconds FROM games g "
        f"WHERE {' AND '.join(where)} ORDER BY COALESCE(g.at, g.received) DESC LIMIT {MOST_GAMES}",
        tuple(args))
    seats: dict[tuple[str, str], list[dict]] = {}
    if found:
        keys = [(row[0], row[1]) for row in found]
        marks = ",".join("(?, ?)" for _ in keys)
        for tbl, game_id, name, score, winner in history.read(
                f"SELECT tbl, game_id, name, score, winner FROM seats WHERE (tbl, game_id) IN "
                f"(VALUES {marks}) ORDER BY seat", tuple(v for key in keys for v in key)):
            seats.setdefault((tbl, game_id), []).append(
                {"name": name, "score": score, "winner": bool(winner)})
    return [{"table": tbl, "game_id": game_id, "day": day, "at": at or received, "game": game,
             "title": title, "seconds": seconds, "players": seats.get((tbl, game_id), [])}
            for tbl, game_id, day, at, received, game, title, seconds in found]


def player_page(history: History, name: str) -> dict:
    """A player's games, wins per game, and when they last played."""
    per_game = history.read("SELECT game, COUNT(*), SUM(winner), MAX(day) FROM seats "
                            "WHERE name = ? GROUP BY game ORDER BY game", (name,))
    return {"player": name, "games": sum(r[1] for r in per_game), "wins": sum(r[2] for r in per_game),
            "last_played": max((r[3] for r in per_game), default=None),
            "per_game": [{"game": g, "games": n, "wins": w} for g, n, w, _ in per_game],
            "recent": games(history, None, None, name)[:20]}


def as_csv(played: list[dict]) -> str:
    """One row a seat: the day, table, game, title, player, score, winner."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["day", "at", "table", "game_id", "game", "title", "seconds", "player", "score", "winner"])
    for game in played:
        for seat in game["players"]:
            writer.writerow([game["day"], game["at"], game["table"], game["game_id"], game["game"],
                             _cell(game["title"]), game["seconds"], _cell(seat["name"]),
                             seat["score"], int(seat["winner"])])
    return out.getvalue()


def _cell(text: str | None) -> str | None:
    """A text from a table, kept from being read as a formula by a spreadsheet."""
    if text and text[0] in "=+-@\t\r":
        return "'" + text
    return text
