"""The café as the broker tells it: every table's latest state and the day's finished games.

paho's thread feeds `receive`; the web server's threads read `view` and wait for the
next change with `wait`. A table's events are numbered per game (`game_id`, `seq`): a repeat is
dropped and a gap (events the broker dropped) shows as `missed`. A table the broker says is
offline keeps when it went (`offline_since`, the dashboard's clock); the dashboard's own link
to the broker is `broker` (up, and since when), for the page's banner.
"""
from __future__ import annotations

import datetime
import logging
import re
import threading
from collections.abc import Callable

from device.fleet.topics import decode, online_of, table_of

log = logging.getLogger(__name__)


def today() -> str:
    return datetime.date.today().isoformat()


def now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")

MAX_TABLES = 256              # any broker client can name a table: a café has far fewer
MAX_FINISHED = 200            # finished games kept (the page shows today's)


class Board:
    def __init__(self, day: Callable[[], str] = today, clock: Callable[[], str] = now) -> None:
        self.day, self.clock = day, clock
        self.version = 0
        self.broker = {"up": False, "since": clock()}
        self._tables: dict[str, dict] = {}
        self._finished: dict[tuple, dict] = {}     # keyed, as a QoS 1 message may come twice
        self._changed = threading.Condition()
        self.closed = False

    def receive(self, topic: str, payload: bytes) -> None:
        where = table_of(topic)
        if where is None:
            return
        name, kind = where
        with self._changed:
            if name not in self._tables and len(self._tables) >= MAX_TABLES:
                log.warning("fleet: ignored table %.40s: already %d tables", name, MAX_TABLES)
                return
            table = self._tables.setdefault(name, {"name": name, "online": None, "state": None,
                                                   "last_event": None, "seq": 0, "missed": 0,
                                                   "offline_since": None})
            if kind == "online":
                said = online_of(payload)
                online = said[0] if said else None
                if online is False and table["online"] is not False:
                    # the table's own time when it said goodbye; a last will has none
                    table["offline_since"] = said[1] if said and said[1] else self.clock()
                elif online is not False:
                    table["offline_since"] = None
                table["online"] = online
            elif (data := decode(payload, topic)) is not None and _fits(kind, data, topic):
                self._apply(table, kind, data)
            self.version += 1
            self._changed.notify_all()

    def _apply(self, table: dict, kind: str, data: dict) -> None:
        if kind == "state":
            table["state"] = data
        elif kind == "finished":
            self._finished[(data.get("table"), data.get("at"), data.get("game"))] = data
            while len(self._finished) > MAX_FINISHED:      # memory stays bounded: oldest go
                del self._finished[min(self._finished, key=lambda k: str(k[1]))]
        elif kind == "events":
            # an event is (table, game_id, seq): a repeat (QoS 1) is dropped, a gap is missed
            seq, game, started = data["seq"], data.get("game_id"), str(data.get("started"))
            if game != table.get("game_id"):
                if started < table.get("started", ""):
                    return                      # the rest of an older game, sent late
                table["game_id"], table["seq"], table["started"] = game, 0, started
            if seq > table["seq"]:
                table["missed"] += seq - table["seq"] - 1
                table["seq"], table["last_event"] = seq, data

    def broker_link(self, up: bool) -> None:
        """The dashboard's own link to the broker came up or went down."""
        with self._changed:
            if up != self.broker["up"]:
                self.broker = {"up": up, "since": self.clock()}
                self.version += 1
                self._changed.notify_all()

    def view(self) -> dict:
        """Every table (by name) and today's finished games (newest first), as JSON data."""
        with self._changed:
            tables = [dict(self._tables[name]) for name in sorted(self._tables, key=_natural)]
            day = self.day()
            today = [g for g in self._finished.values() if str(g.get("at", ""))[:10] == day]
            finished = sorted(today, key=lambda g: str(g.get("at")), reverse=True)
            return {"version": self.version, "day": day, "broker": dict(self.broker),
                    "tables": tables, "finished": finished}

    def wait(self, version: int, timeout: float) -> bool:
        """Wait until the board differs from `version` (True) or `timeout` passed (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.version != version or self.closed, timeout) \
                and not self.closed

    def close(self) -> None:
        """Release every waiting reader: the server is stopping."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()


SHAPES: dict[str, dict[str, type]] = {"state": {"activity": str, "faults": dict},
          "finished": {"at": str, "title": str, "players": list, "winners": list},
          "events": {"seq": int}}
PLAYER = {"name": str}


def _fits(kind: str, data: dict, topic: str) -> bool:
    """The fields the page draws have the types it draws (else dropped, in one log line)."""
    game = data.get("game") if kind == "state" else data
    fits = all(isinstance(data.get(k), t) for k, t in SHAPES[kind].items())
    if fits and kind != "events" and game is not None:
        fits = isinstance(game, dict) and isinstance(game.get("players"), list) \
            and isinstance(game.get("winners"), list) \
            and all(isinstance(p, dict) and isinstance(p.get("name"), str)
                    for p in game["players"])
    if not fits:
        log.warning("fleet: dropped the message on %.80s: not a table's %s", topic, kind)
    return fits


def _natural(name: str) -> list:
    """table-2 before table-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
