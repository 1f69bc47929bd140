"""The café fleet at scale, measured on one machine: simulated tables on a local Mosquitto,
the real dashboard (`tabletop dashboard`, its own process) and a wall screen reading it.

Usage: python tools/fleet_bench.py [--tables 50,200] [--rate 0.4] [--seconds 20] [--json]
                                   [--flood 10000] [--no-floodgate]

For each count of tables, every table is a real fleet link (device/fleet/link.py: its last
will, retained `online`, backoff) publishing its retained `state` and an `events` message in
turn, `rate` messages a second each (0.4: 200 tables make 80 a second). A state carries a
counter as its first player's score, so the wall screen's reader (a live /events client)
sees when each update reaches the page. Measured:

    delay_ms          a table's publish -> the page showing it (p50, p99)
    dashboard_cpu     the dashboard's CPU over the run, in % of one core, and per message (µs)
    dashboard_rss_mb  its resident memory at the end and its peak
    back_after_s      the broker restarted: its start -> the page showing every table online
                      with its latest state again
    boards_per_s      the boards the page received a second (updates are coalesced)

Then the table's own loop with its fleet link in trouble (device/bench/games.py's timed
taps, reader event -> frame): no fleet, a broker port that takes connections and never
answers, a broker with nothing else to say, and the same broker flooded with forged shared
messages (`--flood`, a second; the messages the table's link read a second, `heard_per_s`,
say what reached it), beside the same flood with the table out of the fleet: what the
flooder and the broker, on the table's machine here, cost it anyway. With `--no-floodgate`
the table's link reads the flood to its end, as it did before its floodgate
(device/fleet/floodgate.py).

Needs mosquitto (Debian: /usr/sbin/mosquitto) and paho-mqtt.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from device.cli import logs  # noqa: E402
from device.config import FleetConfig  # noqa: E402
from device.fleet.floodgate import BOUND, Floodgate  # noqa: E402
from device.fleet.link import Link  # noqa: E402
from device.fleet.topics import encode, table_topic  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """A local Mosquitto, anonymous on loopback, persistent (a restart keeps retained values
    and the dashboard's session, as a café's broker does)."""

    def __init__(self, folder: Path) -> None:
        program = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
        if program is None:
            sys.exit("fleet bench: mosquitto is not installed")
        self.program, self.port = program, free_port()
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                             f"persistence true\npersistence_location {folder}/\n"
                             "max_queued_messages 100000\nlog_dest none\n")
        self.process: subprocess.Popen | None = None

    def start(self) -> float:
        """Start it; the moment it takes connections (monotonic)."""
        self.process = subprocess.Popen([self.program, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(1000):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return time.monotonic()
            except OSError:
                time.sleep(0.01)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def state(table: str, counter: int) -> dict:
    """A playing table's retained state, as a table sends it (about 1 kB)."""
    players = [{"name": name, "score": counter if n == 0 else n, "out": False}
               for n, name in enumerate(PLAYERS)]
    prompt = {"key": "palourde.prompt.tap", "args": {"player": "Ann"}}
    return {"table": table, "activity": "playing", "display": "ok", "faults": {},
            "game": {"game": "palourde", "title": "Palourde", "deck": "sim-palourde",
                     "players": players, "winners": [], "over": False, "turn": "Ann",
                     "leader": "Ann", "step": counter, "headline": None,
                     "prompt": {"text": "Ann: tap a card"}},
            "said": {"faults": {}, "prompt": prompt, "headline": None,
                     "last": [{"key": "palourde.said.pair", "args": {"player": "Ann"}}]},
            "times": {"seated": "2030-01-02T20:00:00+01:00",
                      "started": "2030-01-02T20:01:00+01:00", "ended": None}}


class Tables:
    """`count` simulated tables, each a real fleet link, publishing in turn at `rate` each."""

    def __init__(self, count: int, port: int) -> None:
        settings = FleetConfig(enabled=True, host="127.0.0.1", port=port)
        self.names = [f"table-{n + 1}" for n in range(count)]
        self.links = [Link(settings, f"bench-{name}", online_topic=table_topic(name, "online"))
                      for name in self.names]
        self.sent: dict[tuple[str, int], float] = {}     # (table, counter) -> when published
        self.latest: dict[str, int] = {}
        self.messages = 0
        self._stop = threading.Event()

    def start(self) -> None:
        for link in self.links:
            link.start()
        for name in self.names:
            self.publish_state(name)

    def publish_state(self, name: str) -> None:
        link = self.links[self.names.index(name)]
        counter = self.latest.get(name, 0) + 1
        self.latest[name] = counter
        self.sent[(name, counter)] = time.monotonic()
        link.publish(table_topic(name, "state"), encode(state(name, counter)), retain=True)
        self.messages += 1

    def talk(self, rate: float) -> None:
        """Each table in turn, `rate` messages a second each: a state, then an event."""
        gap, turn = 1.0 / (rate * len(self.names)), 0
        next_at = time.monotonic()
        while not self._stop.is_set():
            name = self.names[turn % len(self.names)]
            if (turn // len(self.names)) % 2 == 0:
                self.publish_state(name)
            else:
                link = self.links[turn % len(self.names)]
                seq = self.latest.get(name, 0)
                link.publish(table_topic(name, "events"), encode(
                    {"table": name, "at": "now", "game_id": f"{name}-g", "seq": seq,
                     "started": "2030-01-02T20:01:00+01:00", "game": "palourde", "op": "event",
                     "step": seq, "event": {"type": "tap", "card": "clam#1"}}))
                self.messages += 1
            turn += 1
            next_at += gap
            self._stop.wait(max(0.0, next_at - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        for link in self.links:
            link.close(flush_s=0)


class WallScreen:
    """A live reader of the dashboard's /events: when each table's counter reached the page."""

    def __init__(self, port: int, tables: Tables) -> None:
        self.port, self.tables = port, tables
        self.delays: list[float] = []
        self.boards = 0
        self.last: dict = {}
        self.changed = threading.Condition()
        self._shown: dict[str, int] = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port)) as client:
            client.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            reader = client.makefile("rb")
            for line in reader:
                if line.startswith(b"data: "):
                    self._board(json.loads(line[6:]), time.monotonic())

    def _board(self, board: dict, now: float) -> None:
        for table in board["tables"]:
            game = table.get("game") or {}
            players = game.get("players") or [{}]
            counter = players[0].get("score")
            name = table["name"]
            if isinstance(counter, int) and counter > self._shown.get(name, 0):
                for seen in range(self._shown.get(name, 0) + 1, counter + 1):
                    sent = self.tables.sent.get((name, seen))
                    if sent is not None and seen == counter:
                        self.delays.append(now - sent)
                self._shown[name] = counter
        with self.changed:
            self.boards += 1
            self.last = board
            self.changed.notify_all()

    def wait_for(self, ready, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: bool(self.last) and ready(self.last), timeout)

    def shows_all(self, board: dict) -> bool:
        shown = {t["name"]: t for t in board["tables"]}
        return board["broker"]["up"] and all(
            name in shown and shown[name]["online"] and
            (shown[name].get("game") or {}).get("players", [{}])[0].get("score") == counter
            for name, counter in self.tables.latest.items())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb(pid: int) -> tuple[float, float]:
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return (int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024)


def dashboard(folder: Path, broker_port: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    config = folder / "dashboard.toml"
    config.write_text(f'[fleet]\nenabled = true\nhost = "127.0.0.1"\nport = {broker_port}\n')
    process = subprocess.Popen([sys.executable, "-m", "device.cli", "dashboard", "--config",
                                str(config), "--port", str(port)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1000):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("the dashboard did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def cafe(count: int, rate: float, seconds: float, folder: Path) -> dict:
    """`count` tables for `seconds`, then a broker restart: the figures of one café."""
    broker = Broker(folder)
    broker.start()
    tables = Tables(count, broker.port)
    tables.start()
    process, port = dashboard(folder, broker.port)
    screen = WallScreen(port, tables)
    try:
        if not screen.wait_for(screen.shows_all, 60):
            raise RuntimeError("the page never showed every table")
        talking = threading.Thread(target=tables.talk, args=(rate,), daemon=True)
        screen.delays.clear()
        cpu0, messages0, boards0, t0 = cpu_seconds(process.pid), tables.messages, screen.boards, \
            time.monotonic()
        talking.start()
        time.sleep(seconds)
        elapsed = time.monotonic() - t0
        cpu, messages = cpu_seconds(process.pid) - cpu0, tables.messages - messages0
        rss, peak = memory_mb(process.pid)
        delays = list(screen.delays)
        tables._stop.set()
        talking.join()
        screen.wait_for(screen.shows_all, 30)
        broker.stop()
        screen.wait_for(lambda board: not board["broker"]["up"], 60)
        back_from = broker.start()
        back = screen.wait_for(screen.shows_all, 300)
        back_after = time.monotonic() - back_from if back else None
        return {"tables": count, "messages_per_s": round(messages / elapsed, 1),
                "delay_ms": {"p50": round(percentile(delays, 0.5) * 1000, 1),
                             "p99": round(percentile(delays, 0.99) * 1000, 1)},
                "dashboard_cpu_percent": round(100 * cpu / elapsed, 1),
                "dashboard_us_per_message": round(1e6 * cpu / max(1, messages)),
                "dashboard_rss_mb": round(rss, 1), "dashboard_peak_rss_mb": round(peak, 1),
                "boards_per_s": round((screen.boards - boards0) / elapsed, 1),
                "back_after_s": None if back_after is None else round(back_after, 1)}
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        tables.stop()
        broker.stop()


# ---- the table's own loop, its link in trouble -------------------------------------------------

def taps(folder: Path, fleet: FleetConfig | None, bound: int = BOUND) -> dict:
    """Tap-to-frame of seeded games of Palourde on the bench's table, one after the other, with
    a fleet plugin on `fleet` (None: no fleet at all) whose floodgate closes past `bound`
    messages a second. The table connects once for all of them, as it does for an evening."""
    from device.bench.games import BenchGame, TableRun
    from device.fleet.envelope import Trust
    from device.fleet.freshness import Freshness
    from device.fleet.journal_feed import JournalFeed
    from device.fleet.plugin import FleetPlugin
    from device.fleet.shared import Inbox
    from device.fleet.topics import SHARED_FILTER
    from device.ui.game_select import games
    spec = next(s for s in games() if s.id == "palourde")
    run, began = TableRun(), time.monotonic()
    inbox = Inbox(Trust.of(None, Freshness(None)), "cafe-key-of-32-bytes-for-the-bench")
    gate = Floodgate(time.monotonic, bound)
    link = Link(fleet, "bench-taps", subscriptions=(SHARED_FILTER,), on_message=inbox.receive,
                floodgate=gate).start() if fleet is not None else None
    for seed in range(1, 9):
        table = BenchGame(folder / f"taps-{seed}", spec, run)
        if link is not None:
            feed = JournalFeed(link, "bench", folder / f"taps-{seed}", lambda: "now").start()
            table.app.attach(FleetPlugin(link, "bench", lambda: "now", inbox, table.registry, feed))
        table.play(random.Random(seed))
        if link is not None:
            feed.close()
    heard_per_s = round(gate.seen / (time.monotonic() - began))
    if link is not None:
        link.close()
    return {"taps": len(run.tap_s), "p50_ms": round(percentile(run.tap_s, 0.5) * 1000, 2),
            "p99_ms": round(percentile(run.tap_s, 0.99) * 1000, 2), "heard_per_s": heard_per_s}


def flooder(port: int, per_second: int) -> tuple[subprocess.Popen, Path]:
    """A process publishing forged staff lists at `per_second` (QoS 0); it writes how many."""
    count = Path(tempfile.mkstemp(prefix="flood-")[1])
    script = f"""
import json, os, time, paho.mqtt.client as mqtt
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder")
c.connect("127.0.0.1", {port}); c.loop_start()
body = json.dumps({{"schema": 1, "table": "t9", "staff": {{"00": "Mallory"}}, "sig": "00"}}).encode()
n, start = 0, time.monotonic()
while True:
    c.publish("tabletop/shared/staff", body, qos=0)
    n += 1
    if n % 1000 == 0:
        open({str(count)!r} + ".new", "w").write(f"{{n}} {{time.monotonic() - start}}")
        os.replace({str(count)!r} + ".new", {str(count)!r})
        ahead = n / {per_second} - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)
"""
    return subprocess.Popen([sys.executable, "-c", script]), count


def loop_in_trouble(folder: Path, flood: int, bound: int) -> dict:
    results = {"no_fleet": taps(folder / "none", None)}
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen(64)                          # takes connections, never says a word
        results["silent_broker"] = taps(folder / "mute", FleetConfig(
            enabled=True, host="127.0.0.1", port=mute.getsockname()[1]))
    broker = Broker(folder)
    broker.start()
    results["quiet_broker"] = taps(folder / "quiet", FleetConfig(
        enabled=True, host="127.0.0.1", port=broker.port), bound)
    process, count = flooder(broker.port, flood)
    try:
        time.sleep(1.0)
        results["flood_without_fleet"] = taps(folder / "flood-none", None)
        results["flooded_broker"] = taps(folder / "flood", FleetConfig(
            enabled=True, host="127.0.0.1", port=broker.port), bound)
        sent, took = count.read_text().split()
        results["flooded_broker"]["flood_per_s"] = round(int(sent) / float(took))
    finally:
        process.kill()
        process.wait()
        broker.stop()
        count.unlink()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="50,200")
    parser.add_argument("--rate", type=float, default=0.4, help="messages a second per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flood", type=int, default=10_000, help="forged messages a second")
    parser.add_argument("--no-floodgate", action="store_true",
                        help="the table's link reads every flooded message (as before)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logs.set_up(sys.stderr, os.environ)              # the table's own log, hushed as it is
    report: dict = {"cafes": [], "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as scratch:
        for n, count in enumerate(int(c) for c in args.tables.split(",")):
            folder = Path(scratch) / f"cafe-{n}"
            folder.mkdir()
            print(f"fleet bench: {count} tables", file=sys.stderr, flush=True)
            report["cafes"].append(cafe(count, args.rate, args.seconds, folder))
        print("fleet bench: the table's loop, its link in trouble", file=sys.stderr, flush=True)
        report["table_loop"] = loop_in_trouble(Path(scratch), args.flood,
                                               sys.maxsize if args.no_floodgate else BOUND)
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
