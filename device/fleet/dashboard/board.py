"""The café as the broker tells it: every table's latest state and the day's finished games.

paho's thread feeds `receive`; the web server's threads read `view` and wait for the
next change with `wait`. Every message goes through the one parser of table messages
(device/fleet/schema.py) first: what does not fit is dropped (logged, rate-limited) and
changes nothing, and with the café's fleet key set only signed messages count.

A table that signs (or, without a key, that has sent a valid state) is a real one: invented
names never crowd it off the board, and their finished games are the first to go. A finished
game is today's when the dashboard received it today, by its own clock; the table's date is
only its label. How long a game and a sitting have lasted comes from the table's own count
(`elapsed`, `seconds`) plus the time since it arrived on the dashboard's monotonic clock, never
from subtracting two wall-clock dates (older tables that send no count: the page's own sums).

A table's events are numbered per game (`game_id`, `seq`): a repeat is dropped and a gap
(events the broker dropped) shows as `missed`. A table the broker says is offline keeps when it
went (`offline_since`, the dashboard's clock); the dashboard's own link to the broker is
`broker` (up, and since when), for the page's banner.
"""
from __future__ import annotations

import datetime
import json
import logging
import re
import threading
import time
from collections.abc import Callable

from device.fleet import schema
from device.fleet.backoffice.history import History
from device.fleet.envelope import Trust
from device.fleet.shared import SharedTables, enrol_tables, read_shared
from device.fleet.topics import SHARED_TABLES, table_of

log = logging.getLogger(__name__)


def today() -> str:
    return datetime.date.today().isoformat()


def now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


MAX_TABLES = 256              # a café has far fewer: room for every real one
MAX_FINISHED = 200            # finished games kept (the page shows today's)


class Board:
    def __init__(self, day: Callable[[], str] = today, clock: Callable[[], str] = now,
                 trust: Trust | None = None, monotonic: Callable[[], float] = time.monotonic,
                 counted: History | None = None) -> None:
        """With `trust` (the café's admin key), only the messages of the tables the café's
        signed list enrols count; `counted`, the history, keeps each finished game once, restarts
        included."""
        self.day, self.clock, self.monotonic = day, clock, monotonic
        self.trust = trust if trust is not None and trust.admin is not None else None
        self.counted = counted if counted is not None else History(None)
        self.version = 0
        self.broker = {"up": False, "since": clock()}
        self.drops = schema.Drops(monotonic)
        self._tables: dict[str, dict] = {}
        self._finished: dict[tuple, dict] = {}     # keyed, as a QoS 1 message may come twice
        self._received = 0                         # finished games, numbered as they arrive
        self._changed = threading.Condition()
        self.closed = False

    def receive(self, topic: str, payload: bytes) -> None:
        if topic == SHARED_TABLES:
            self._enrol(payload)
            return
        where = table_of(topic)
        if where is None:
            return
        name, kind = where
        try:
            schema.table_name(name)
            now = datetime.datetime.fromisoformat(self.clock())
            data = schema.online(payload, now, self.trust, name) if kind == "online" else \
                schema.message(kind, name, payload, self.trust, now)
        except schema.Refused as refused:
            self.drops.drop(topic, str(refused))
            return
        # a table is real once it signs (with a key) or has sent a valid state (without one)
        real = kind != "online" and (self.trust is not None or kind == "state")
        with self._changed:
            table = self._table(name, real)
            if table is None:
                self.drops.drop(topic, f"already {MAX_TABLES} tables")
                return
            table["real"] = table["real"] or real
            if isinstance(data, tuple):
                self._online(table, data)
            else:
                self._apply(table, kind, data)
            self.version += 1
            self._changed.notify_all()

    def _enrol(self, payload: bytes) -> None:
        """The café's signed list of tables: whose messages count from now on."""
        if self.trust is None or not payload:
            return
        try:
            shared, _ = read_shared(SHARED_TABLES, payload, self.trust)
        except schema.Refused as refused:
            self.drops.drop(SHARED_TABLES, str(refused))
            return
        if isinstance(shared, SharedTables):
            with self._changed:
                enrol_tables(self.trust, shared)
                self.version += 1
                self._changed.notify_all()

    def _table(self, name: str, real: bool) -> dict | None:
        """The table's entry; a new one if there is room, or if a real table takes the place
        of the invented name heard from longest ago."""
        table = self._tables.get(name)
        if table is None and len(self._tables) >= MAX_TABLES:
            invented = [t for t in self._tables.values() if not t["real"]]
            if not real or not invented:
                return None
            del self._tables[min(invented, key=lambda t: t["heard"])["name"]]
        if table is None:
            table = self._tables[name] = {
                "name": name, "online": None, "state": None, "last_event": None, "seq": 0,
                "missed": 0, "offline_since": None, "real": False, "heard": 0.0,
                "state_heard": None, "sitting": None}
        table["heard"] = self.monotonic()
        return table

    def _online(self, table: dict, said: tuple[bool, str | None]) -> None:
        online, since = said
        if not online and table["online"] is not False:
            # the table's own time when it said goodbye; a last will has none: when we heard it
            table["offline_since"] = since or self.clock()
        elif online:
            table["offline_since"] = None
        table["online"] = online

    def _apply(self, table: dict, kind: str, data: dict) -> None:
        if kind == "state":
            self._sat(table, data["times"])
            table["state"], table["state_heard"] = data, self.monotonic()
        elif kind == "finished":
            self._finish(table, data)
        else:
            # an event is (table, game_id, seq): a repeat (QoS 1) is dropped, a gap is missed
            seq, game, started = data["seq"], data["game_id"], data["started"] or ""
            if game != table.get("game_id"):
                if started < table.get("started", ""):
                    return                      # the rest of an older game, sent late
                table["game_id"], table["seq"], table["started"] = game, 0, started
            if seq > table["seq"]:
                table["missed"] += seq - table["seq"] - 1
                table["seq"], table["last_event"] = seq, data

    def _sat(self, table: dict, times: dict) -> None:
        """When the sitting began on our monotonic clock: at its first state, minus what the
        game had lasted then (a new `seated` label is a new sitting)."""
        seated, elapsed = times["seated"], times["elapsed"]
        if seated is None or elapsed is None:
            table["sitting"] = None
        elif table["sitting"] is None or table["sitting"][0] != seated:
            table["sitting"] = (seated, self.monotonic() - elapsed)

    def _finish(self, table: dict, data: dict) -> None:
        key = (table["name"], json.dumps(data, sort_keys=True))
        if key in self._finished:
            return                              # the same game again (QoS 1)
        if data["game_id"] is not None and not self.counted.first(
                table["name"], data["game_id"], self.clock(), data):
            return                              # counted before, maybe before a restart
        self._received += 1
        self._finished[key] = {**data, "table": table["name"], "real": table["real"],
                               "day": self.day(), "received": self.clock(), "n": self._received}
        while len(self._finished) > MAX_FINISHED:      # bounded: invented ones first, then oldest
            del self._finished[min(self._finished,
                                   key=lambda k: (self._finished[k]["real"], self._finished[k]["n"]))]

    def broker_link(self, up: bool) -> None:
        """The dashboard's own link to the broker came up or went down."""
        with self._changed:
            if up != self.broker["up"]:
                self.broker = {"up": up, "since": self.clock()}
                self.version += 1
                self._changed.notify_all()

    def view(self) -> dict:
        """Every table (by name) and today's finished games (newest first), as JSON data.
        With a key, only the tables that sign and are still enrolled are shown."""
        with self._changed:
            shown = [t for t in self._tables.values() if self._enrolled(t)]
            tables = [self._shown(t) for t in sorted(shown, key=lambda t: _natural(t["name"]))]
            day = self.day()
            finished = sorted((g for g in self._finished.values() if g["day"] == day),
                              key=lambda g: g["n"], reverse=True)
            return {"version": self.version, "day": day, "broker": dict(self.broker),
                    "tables": tables, "finished": finished}

    def _enrolled(self, table: dict) -> bool:
        """Shown: any table without a key; with one, a table that signed and that the café's
        latest list still enrols (one struck off leaves the board at once)."""
        return self.trust is None or (table["real"] and
                                      self.trust.tables.get(table["name"]) is not None)

    def _shown(self, table: dict) -> dict:
        """The table, with how long its game and its sitting have lasted by now (or None)."""
        shown = {k: v for k, v in table.items() if k not in ("heard", "state_heard", "sitting")}
        state, now = table["state"], self.monotonic()
        times = state["times"] if state else {"elapsed": None, "ended": None}
        running = times["ended"] is None and state["activity"] == "playing" if state else False
        since = now - table["state_heard"] if running and table["online"] is not False else 0
        shown["game_s"] = None if times["elapsed"] is None else int(times["elapsed"] + since)
        shown["seated_s"] = None if table["sitting"] is None else int(now - table["sitting"][1])
        return shown

    def wait(self, version: int, timeout: float, stop: Callable[[], bool] = lambda: False) -> bool:
        """Wait until the board differs from `version` (True) or `timeout` passed, or `stop()`
        holds once woken (False)."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self.version != version or self.closed or stop(), timeout) \
                and not self.closed and not stop()

    def wake(self) -> None:
        """Wake every waiting reader to look at its own `stop` (one of them has gone)."""
        with self._changed:
            self._changed.notify_all()

    def close(self) -> None:
        """Release every waiting reader: the server is stopping."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()


def _natural(name: str) -> list:
    """table-2 before table-10 (names are ASCII: the parser saw to it)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name, flags=re.ASCII)]
