"""The journal is the outbox: a table's events go to the broker from its journals on disk.

Every accepted operation is already in the game's journal (fsynced before the screen
answers), and a finished game in the archive. So nothing is queued in memory: a sender
thread reads the journals after a cursor, publishes each operation at QoS 1 and moves the
cursor only once the broker acknowledged it. The cursor (`fleet-cursor.json` in the state
dir: game id -> last operation acknowledged) survives a restart, so after a stop, a power
cut or a long outage every event still arrives. It goes to disk once a pass (and every
KEEP_EVERY events of a long one), not once an event: each write costs two fsyncs, and a
busy table's feed is a few events behind. A power cut mid-pass sends those events again.
An event is numbered by its game and its place in that game's journal: `(table, game_id,
seq)` names it once, and a consumer that sees a message twice (QoS 1 is at least once)
keeps one by that key.

A finished game leaves the same way: its message is written to `fleet-finished/` in the
state dir as the game is left (fsynced, numbered in order) and removed once the broker
acknowledged it, so a finished game reached during an outage, or just before a restart,
arrives once the broker is back. The message is fixed on disk with its `at`: sent twice
(a power cut between the acknowledgement and the removal), it is the same message, and a
consumer keeps one by (table, at, game).
"""
from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

from device.paths import write_atomic
from device.storage import quarantine
from device.storage.journal import FORMAT, Contents, JournalError, read
from engine.core.text import msg

from .topics import decode, encode, table_topic

log = logging.getLogger(__name__)

CURSOR_FILE = "fleet-cursor.json"
CURRENT = "current.jsonl"
FINISHED_DIR = "fleet-finished"
FINISHED_KEPT = 200           # finished games waiting for the broker: beyond, the oldest go
ACK_S = 10.0                  # the longest wait for one acknowledgement before trying later
KEEP_EVERY = 50               # events acknowledged between two writes of the cursor, at most
RETRY_S = 5.0


class Cursor:
    """Game id -> the last operation the broker acknowledged, kept in the state dir."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / CURSOR_FILE
        self.done: dict[str, int] = {}
        self.moved = False                      # advanced since it was last kept
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("fleet: %s not read: %s", CURSOR_FILE, exc.strerror or exc)
            return
        except (ValueError, RecursionError) as exc:     # not UTF-8, not JSON, nested too deep
            data = exc
        if not isinstance(data, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in data.values()):
            # every event is sent again from the start: the dashboard keeps one of each
            quarantine.refuse(state_dir, self.path, "not a cursor of game ids and numbers")
            return
        self.done = data

    def advance(self, game_id: str, seq: int) -> None:
        """Note `seq` as acknowledged (on disk at the next `keep`)."""
        self.done[game_id] = seq
        self.moved = True

    def forget_all_but(self, keep: set[str]) -> None:
        """Forget the games no longer on disk (the archive keeps the newest N): a bounded file."""
        if set(self.done) - keep:
            self.done = {k: v for k, v in self.done.items() if k in keep}
            self.moved = True

    def keep(self) -> None:
        """On disk, if it moved."""
        if self.moved:
            write_atomic(self.path, json.dumps(self.done, sort_keys=True))
            self.moved = False


def journals(state_dir: Path) -> list[Path]:
    """The archived games, oldest first, then the game being played."""
    state_dir = Path(state_dir)
    return sorted((state_dir / "archive").glob("*.jsonl")) + \
        [p for p in (state_dir / CURRENT,) if p.exists()]


class Tail:
    """The game being played, read as it grows: each pass parses only the lines written since
    the last one (the journal grows by a line an input; reading it whole at every input would
    cost more with every move). A new game's journal, told by its header line, is read anew."""

    def __init__(self) -> None:
        self.first: bytes | None = None      # the header line of the journal read so far
        self.offset = 0
        self.contents: Contents | None = None
        self.parsed = 0                      # lines parsed since start: what a test counts

    def read(self, path: Path) -> Contents:
        """The journal at `path`, its lines parsed as `read` does (JournalError if one is not
        a JSON object or the first is not a journal's header; OSError)."""
        with open(path, "rb") as f:
            first = f.readline()
            if first != self.first:
                self.first, self.offset, self.contents = first, 0, None
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1             # a line without its newline is not written yet
        records = [self._parse(line) for line in data[:end].splitlines()]
        if self.contents is None:
            if not records or records[0].get("journal") != FORMAT:
                self.first = None
                raise JournalError(msg("ui.journal_not_one"))
            self.contents = Contents(records[0], [])
            records = records[1:]
        self.contents.records.extend(records)
        self.offset += end
        return self.contents

    def _parse(self, line: bytes) -> dict:
        self.parsed += 1
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict):
            self.first = None                    # read whole (and refused) next time
            raise JournalError(msg("ui.journal_not_one"))
        return record


def pending(paths: list[Path], done: dict[str, int], seen: dict[str, str] | None = None,
            current: Tail | None = None):
    """(game id, seq, record, header) of every operation in `paths` not acknowledged yet, in
    order. Each file's game id goes into `seen` (file name -> id); the game being played is
    read through `current` when given."""
    for path in paths:
        try:
            contents = current.read(path) if current is not None and \
                path.name == CURRENT else read(path)
        except (JournalError, OSError):
            continue                           # the store keeps a damaged journal aside
        game_id = contents.header.get("id")
        if not isinstance(game_id, str) or contents.header.get("journal") != FORMAT:
            continue
        if seen is not None:
            seen[path.name] = game_id
        sent = done.get(game_id, 0)              # operations come first, the end line last
        for seq, record in enumerate(contents.records[sent:], sent + 1):
            if record.get("op") != "end":
                yield game_id, seq, record, contents.header


class FinishedBox:
    """Finished games' messages on disk until the broker has them: 000001.json, 000002.json..."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.dir = self.state_dir / FINISHED_DIR

    def waiting(self) -> list[Path]:
        """The messages not acknowledged yet, oldest first."""
        try:
            return sorted(p for p in self.dir.glob("*.json") if p.stem.isdigit())
        except OSError:
            return []

    def keep(self, payload: bytes) -> None:
        """Write a finished game's message, on disk before the caller goes on."""
        waiting = self.waiting()
        number = int(waiting[-1].stem) + 1 if waiting else 1
        write_atomic(self.dir / f"{number:06d}.json", payload.decode())
        for old in waiting[:max(0, len(waiting) + 1 - FINISHED_KEPT)]:
            log.warning("fleet: the broker never took finished game %s: dropped", old.name)
            old.unlink(missing_ok=True)

    def read(self, path: Path) -> bytes | None:
        """The message as kept; None for a file that is not one (set aside, in one line)."""
        try:
            payload = path.read_bytes()
        except OSError as exc:
            log.error("fleet: %s/%s not read: %s", FINISHED_DIR, path.name, exc.strerror or exc)
            return None
        data = decode(payload)
        if data is None or not isinstance(data.get("table"), str) \
                or not isinstance(data.get("at"), str):
            # only the table's own feed sends from here: aside always, or it would stop the rest
            quarantine.refuse(self.state_dir, path, "not a finished game's message", always=True)
            return None
        return payload


def message(table: str, at: str, game_id: str, seq: int, record: dict, header: dict) -> dict:
    return {"table": table, "at": at, "game_id": game_id, "seq": seq, "game": header.get("game"),
            "started": header.get("started"),
            "op": record.get("op"), "step": record.get("seq"), "event": record.get("event")}


class JournalFeed:
    """The sender thread: poked after each accepted operation and when the link comes up."""

    def __init__(self, link, table: str, state_dir: Path, wall_clock, signer=None) -> None:
        self.link, self.table, self.state_dir, self.wall_clock = link, table, state_dir, wall_clock
        self.signer = signer                    # the table's own key: each event is signed
        self.cursor = Cursor(state_dir)
        self.finished = FinishedBox(state_dir)
        self._sent_archives: set[str] = set()   # archived games wholly acknowledged: not re-read
        self._ids: dict[str, str] = {}          # journal file name -> its game id
        self.current = Tail()                   # the game being played, read as it grows
        self.acknowledged = 0                   # since start: what `wait_acknowledged` counts
        self.finished_acknowledged = 0          # finished games, since start
        self._acked = threading.Condition()
        self._poke, self._stop = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._run, name="fleet-journal", daemon=True)

    def start(self) -> JournalFeed:
        self._thread.start()
        return self

    def poke(self) -> None:
        self._poke.set()

    def keep_finished(self, payload: bytes) -> None:
        """A finished game's message: on disk now, sent like the events."""
        try:
            self.finished.keep(payload)
        except OSError as exc:                # a full or read-only disk: the game plays on
            log.error("fleet: a finished game not kept for the broker: %s", exc.strerror or exc)
        self.poke()

    def wait_acknowledged(self, count: int, timeout: float) -> bool:
        """Wait until the broker acknowledged `count` events since start (its cursor on disk)."""
        with self._acked:
            return self._acked.wait_for(lambda: self.acknowledged >= count, timeout)

    def close(self) -> None:
        self._stop.set()
        self._poke.set()
        self._thread.join(timeout=ACK_S)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._poke.wait(RETRY_S)
            self._poke.clear()
            try:
                self.send_pending()
            except Exception as exc:          # noqa: BLE001  (the thread must not die)
                log.error("fleet: journal feed: %s: %s", type(exc).__name__, exc)

    def send_pending(self) -> int:
        """Publish what the broker has not acknowledged, finished games first (they are few
        and the wall screen's news); how many events it acknowledged now. Its events count as
        acknowledged once the cursor past them is on disk."""
        if not self.link.up.is_set():
            return 0
        if not self._send_finished():
            return 0
        sent = unkept = 0
        try:
            for _ in self._send_events():
                sent, unkept = sent + 1, unkept + 1
                if unkept == KEEP_EVERY:           # a long backlog: a crash resends at most this
                    unkept = self._keep(unkept)
        finally:
            self._keep(unkept)
        return sent

    def _keep(self, acknowledged: int) -> int:
        """The cursor on disk, then its newly acknowledged events counted; 0 (none unkept)."""
        self.cursor.keep()
        with self._acked:
            self.acknowledged += acknowledged
            self._acked.notify_all()
        return 0

    def _send_events(self):
        """Each event the broker acknowledged in this pass, the cursor moved past it (in memory)."""
        on_disk = journals(self.state_dir)
        # games still on disk keep their cursor; one archived during this pass is not in
        # `paths`, and the next pass sends the rest of it
        names = {p.name for p in on_disk}
        self._ids = {name: i for name, i in self._ids.items() if name in names}
        paths = [p for p in on_disk if p.name not in self._sent_archives]
        for game_id, seq, record, header in pending(paths, self.cursor.done, self._ids,
                                                    self.current):
            if self._stop.is_set() or not self.link.up.is_set():
                return
            topic = table_topic(self.table, "events")
            data = message(self.table, self.wall_clock(), game_id, seq, record, header)
            payload = self.signer.seal(topic, data) if self.signer is not None else encode(data)
            if not self.link.send_acked(topic, payload, ACK_S):
                return                             # tried again at the next poke
            self.cursor.advance(game_id, seq)
            yield seq
        # a whole pass: every file on disk was read once, so `_ids` names every game there
        self.cursor.forget_all_but(set(self._ids.values()))
        # only names still on disk: the archive keeps the newest N, so this set does too
        self._sent_archives = (self._sent_archives & names) | \
            {p.name for p in paths if p.parent.name == "archive"}

    def _send_finished(self) -> bool:
        """Each finished game kept on disk, removed once acknowledged; False if one was not."""
        for path in self.finished.waiting():
            payload = self.finished.read(path)
            if payload is None:
                continue
            if self._stop.is_set() or not self.link.send_acked(
                    table_topic(self.table, "finished"), payload, ACK_S):
                return False                       # tried again at the next poke
            path.unlink(missing_ok=True)
            with self._acked:
                self.finished_acknowledged += 1
        return True
