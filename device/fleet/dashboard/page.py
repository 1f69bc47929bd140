"""What the wall screen draws, in one language: the board made into words and numbers only.

The tables send their texts as message keys (device/fleet/words.py): here they become words
of the dashboard's language through the tables' own catalogs. Nothing else a table sent is
passed on as text but names, titles and scores: no card ids, no event records, no keys. A
table whose state lacks the words (an older table) shows its own texts where it has them.
The counts leave offline tables out of `playing`; the finished list is the newest `finished`.
"""
from __future__ import annotations

from device.config import LANGUAGES
from device.fleet.words import words
from device.players.roster import unnamed
from engine.core.text import DEFAULT_LANGUAGE, catalog, msg, render

ACTIVITIES = ("playing", "over", "idle", "attract")
# The page's own words, filled in by the page; the counted ones are worded here, where the
# catalogs pick a count's form.
LABELS = ("title", "no_game", "at_table", "minutes", "hours", "offline_since", "finished",
          "none_finished", "no_winner", "broker_down", "unavailable", "waiting", "leaderboard",
          *(f"activity.{a}" for a in (*ACTIVITIES, "offline", "unknown")))
LAST_LINES = 4
FINISHED = 10                 # the finished games shown, newest first, unless configured
LEADERS = 10                  # the players on the day's leaderboard


def language_of(asked: str | None, default: str) -> str:
    return asked if asked in LANGUAGES else default if default in LANGUAGES else DEFAULT_LANGUAGE


def labels(language: str) -> dict[str, str]:
    """The page's own words as templates (`{n}` and the like are filled in by the page)."""
    here, english = catalog(language), catalog(DEFAULT_LANGUAGE)
    found = {key: here.get(f"dash.{key}", english.get(f"dash.{key}", "")) for key in LABELS}
    # a counted word is worded by the server (its catalogs know a count's forms), never a label
    return {key: text for key, text in found.items() if isinstance(text, str)}


def page(view: dict, language: str, finished: int = FINISHED) -> dict:
    tables = [table_shown(table, language) for table in view["tables"]]
    online = [t for t in tables if t["activity"] != "offline"]
    counts = {"tables": len(tables), "online": sum(t["online"] for t in tables),
              "playing": sum(t["activity"] == "playing" for t in online),
              "offline": len(tables) - len(online)}
    counted = [render(msg(f"dash.{key}", n=n), language) for key, n in counts.items()
               if n or key != "offline"]
    return {"version": view["version"], "day": view["day"], "language": language,
            "words": labels(language), "broker": view["broker"],
            "counts": counts, "counted": counted, "tables": tables,
            "finished": [finished_shown(g, language) for g in view["finished"][:max(0, finished)]],
            "leaders": leaders(view["finished"], language)}


def leaders(games: list[dict], language: str) -> list[dict]:
    """Wins per player name over the day's finished games: the most wins first, then the most
    games, then by name; everyone who played is counted, winner or not. A seat nobody named
    (P1, P2, ...) is someone else at each game: no one on the leaderboard."""
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    for game in games:
        for name in {p["name"] for p in _players(game.get("players")) if not unnamed(p["name"])}:
            played[name] = played.get(name, 0) + 1
        for name in {w for w in _list(game.get("winners")) if isinstance(w, str) and not unnamed(w)}:
            wins[name] = wins.get(name, 0) + 1
    names = sorted(set(wins) | set(played),
                   key=lambda n: (-wins.get(n, 0), -played.get(n, 0), n))[:LEADERS]
    return [{"name": n, "wins": wins.get(n, 0), "games": played.get(n, 0),
             "wins_words": render(msg("dash.wins", n=wins.get(n, 0)), language)} for n in names]


def table_shown(table: dict, language: str) -> dict:
    state = table["state"] if isinstance(table.get("state"), dict) else {}
    said = _dict(state.get("said"))
    activity = state.get("activity") if state.get("activity") in ACTIVITIES else "unknown"
    if table.get("online") is False:
        activity = "offline"
    game = state.get("game") if isinstance(state.get("game"), dict) else None
    faults = [words(m, language) for m in _dict(said.get("faults")).values()] if "faults" in said \
        else [text for text in _dict(state.get("faults")).values()]
    last = [words(m, language) for m in _list(said.get("last"))[:LAST_LINES]]
    return {"name": table["name"], "online": table.get("online") is True,
            "activity": activity, "offline_since": table.get("offline_since"),
            "missed": table.get("missed", 0), "missed_words": _missed(table.get("missed"), language),
            "times": {**_times(state.get("times")), "game_s": table.get("game_s"),
                      "seated_s": table.get("seated_s")},
            "game": game_shown(game, said, language) if game else None,
            "faults": [text for text in faults if isinstance(text, str) and text],
            "last": "\n".join(text for text in last if text) or None}


def game_shown(game: dict, said: dict, language: str) -> dict:
    if said:
        prompt, headline = words(said.get("prompt"), language), words(said.get("headline"), language)
    else:                                          # an older table: its own texts
        prompt, headline = _text(_dict(game.get("prompt")).get("text")), _text(game.get("headline"))
    return {"title": _text(game.get("title")), "over": game.get("over") is True,
            "turn": _text(game.get("turn")), "players": _players(game.get("players")),
            "winners": [w for w in _list(game.get("winners")) if isinstance(w, str)],
            "prompt": prompt, "headline": headline}


def finished_shown(game: dict, language: str) -> dict:
    said = _dict(game.get("said"))
    headline = words(said.get("headline"), language) if said else _text(game.get("headline"))
    # the table's time is its label, unless its clock was set right during the game: then ours
    at = game.get("received") if game.get("clock_corrected") or not game.get("at") else game["at"]
    return {"at": _text(at), "started": _text(game.get("started")),
            "seconds": game.get("seconds") if isinstance(game.get("seconds"), int) else None,
            "table": _text(game.get("table")), "title": _text(game.get("title")),
            "players": _players(game.get("players")), "headline": headline,
            "winners": [w for w in _list(game.get("winners")) if isinstance(w, str)]}


def _players(players) -> list[dict]:
    return [{"name": p["name"], "score": p.get("score") if _number(p.get("score")) else None,
             "out": p.get("out") is True}
            for p in _list(players) if isinstance(p, dict) and isinstance(p.get("name"), str)]


def _times(times) -> dict:
    times = _dict(times)
    return {key: _text(times.get(key)) for key in ("seated", "started", "ended")}


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _missed(missed: object, language: str) -> str | None:
    return render(msg("dash.missed", n=missed), language) if isinstance(missed, int) and missed > 0 \
        else None
