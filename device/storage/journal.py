"""The crash-safe journal: one append-only JSONL file per game.

Line 1 is the header (id, game, players, options, deck, rules version, start
time). Every accepted operation follows as one line (`op` event, undo or redo,
`seq`, the state `hash` after it, `in` the input it came from, `elapsed` the
seconds the game has been played so far), written and fsynced before the screen
acknowledges it. A game that ends gets an `end` line (finished or abandoned, the
wall-clock time `at` and `elapsed`) before it is archived.

Time: `elapsed` is measured on the monotonic clock, and a table that restarts
mid-game goes on from the last one written, so a game's length survives restarts
and wall-clock jumps. Wall-clock times are labels only; the header's `started`
is never rewritten, and when the wall clock jumped during the game the end line
carries the start re-dated (`started`) with `clock_corrected: true`.

Resume replays the lines and checks every hash; a torn last line (a power cut
mid-write) is dropped and reported; anything else that does not fit raises
JournalError, and the store keeps the file aside, never resumed silently.
"""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import device.texts  # noqa: F401  (registers the texts shown below)
import engine
from device.paths import write_atomic
from engine import Session
from engine.core.codec import config_from_plain, config_to_plain, state_hash
from engine.core.events import event_from_json, event_to_json
from engine.core.record import record
from engine.core.session import Op
from engine.core.text import Msg, msg

FORMAT = 1
STOPS = "TABLETOP_JOURNAL_STOPS"       # crash tests: stop the process around each write


class JournalError(Exception):
    """A journal that cannot be resumed as it is; `reason` says why, for the screen and the log."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(str(reason))
        self.reason = reason


@record(frozen=False, slots=False)
class Contents:
    header: dict
    records: list[dict]
    torn: bool = False           # the last line was cut short and dropped


@record(frozen=False, slots=False)
class Resumed:
    header: dict
    session: Session
    deck: str | None
    records: list[dict]
    torn: bool
    effects: tuple[Msg, ...]     # what the last operation said on screen
    end: dict | None             # the end record, when the game ended but was not archived yet
    elapsed: float | None        # seconds played at the last operation (None: not kept then)


@record(slots=False)
class Played:
    """How long an ended game was played, and when it started, as its journal says."""
    seconds: float | None        # to its last operation; None: not kept (an older journal)
    started: str | None          # the header's label, or the end line's re-dated one
    clock_corrected: bool        # the start was re-dated: the wall clock jumped during the game


def played(resumed: Resumed) -> Played:
    end = resumed.end or {}
    corrected = end.get("clock_corrected") is True and isinstance(end.get("started"), str)
    started = end["started"] if corrected else resumed.header.get("started")
    return Played(resumed.elapsed, started if isinstance(started, str) else None, corrected)


def header_for(session: Session, deck: str | None, started: str, source: int | None = None) -> dict:
    import uuid  # here: reading a journal (`tabletop status`) starts without it (and platform)
    spec = session.spec
    header = {"journal": FORMAT, "id": uuid.uuid4().hex, "game": spec.id,
              "config": config_to_plain(session.config), "deck": deck,
              "rules_version": spec.rules_version, "started": started}
    if source is not None:
        header["in"] = source
    return header


def record_for(op: Op, state, source: int | None = None, elapsed: float | None = None) -> dict:
    record = {"op": op.kind, "seq": state.seq, "hash": state_hash(state)}
    if op.event is not None:
        record["event"] = event_to_json(op.event)
    if source is not None:
        record["in"] = source
    if elapsed is not None:
        record["elapsed"] = round(elapsed, 3)
    return record


def end_record(abandoned: bool, at: str, source: int | None = None,
               elapsed: float | None = None, started: str | None = None) -> dict:
    """The end line; `started`: the game's start re-dated, when the wall clock jumped since."""
    record: dict[str, object] = {"op": "end", "result": "abandoned" if abandoned else "finished",
                                 "at": at}
    if source is not None:
        record["in"] = source
    if elapsed is not None:
        record["elapsed"] = round(elapsed, 3)
    if started is not None:
        record["started"], record["clock_corrected"] = started, True
    return record


def encode(record: dict) -> bytes:
    """One journal line: canonical JSON and its newline."""
    return (json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n").encode()


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def stop_here(stage: str) -> None:
    """Crash tests only: say where the write is, then stop, so the test can kill the process here."""
    if os.environ.get(STOPS) == "1":
        import signal  # here: only the crash tests stop a process
        sys.stderr.write(f"journal {stage}\n")    # one write: another thread's log line
        sys.stderr.flush()                         # never lands inside it
        os.kill(os.getpid(), signal.SIGSTOP)


class Journal:
    """A journal being written, one whole fsynced line at a time.

    A line the disk refuses (full, read-only, I/O error) is cut back off and forgotten:
    its input was not taken, and the player repeats it once the disk takes lines again.
    Only a new game's header waits for the first write that succeeds (it acknowledges no
    input), so a game started on a failing disk is saved whole or not at all.
    """

    def __init__(self, path: Path, header: dict | None = None) -> None:
        """Append to the journal at `path`; with a header, a new one not written yet."""
        self.path = path
        self._fd: int | None = None
        self._header = encode(header) if header is not None else None
        self.error: str | None = None
        if header is None:
            try:
                self._open()
            except OSError as exc:       # a read-only disk: opened again at the next write
                self.error = exc.strerror or str(exc)

    @classmethod
    def create(cls, path: Path, header: dict) -> Journal:
        """A new journal; if the disk refuses even the header, it goes out with the next line."""
        journal = cls(path, header)
        journal.flush()
        return journal

    def _open(self) -> int:
        drop_torn_tail(self.path)        # appends start on a clean line
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self._good_size = os.fstat(self._fd).st_size
        return self._fd

    def append(self, record: dict) -> bool:
        """Write and fsync one line; False (the reason in `error`) if it is not on disk."""
        return self._write(encode(record))

    def flush(self) -> bool:
        """Write a header still waiting; False while the disk refuses it."""
        return self._write(b"")

    @property
    def saved(self) -> bool:
        """Every line given so far is on disk (a header too)."""
        return self._header is None

    def _write(self, line: bytes) -> bool:
        wrote = bool(line)
        try:
            if self._fd is None and self._header is not None:   # whole or not at all
                write_atomic(self.path, self._header.decode())
                self._header, wrote = None, True
            fd = self._open() if self._fd is None else self._fd
            if line:
                _write_all(fd, line)
                stop_here("written")
                os.fsync(fd)
                self._good_size += len(line)
        except OSError as exc:
            self.error = exc.strerror or str(exc)
            self._cut_back()
            return False
        self.error = None
        if wrote:
            stop_here("synced")
        return True

    def _cut_back(self) -> None:
        """Cut a partial write back off, so the file never holds a torn line mid-journal."""
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, self._good_size)
        except OSError:
            pass

    def close(self) -> None:
        """Let the file go (every line is already on disk, or was refused)."""
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def read(path: Path) -> Contents:
    """Parse a journal; JournalError if it is not one, or is damaged before its last line.

    A last line without its newline was never acknowledged (lines are fsynced whole), so it is
    dropped even when it happens to be valid JSON: its input is simply taken again.
    """
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as exc:
        raise JournalError(msg("ui.journal_unreadable", why=exc.strerror or exc)) from None
    torn = lines.pop() != b""
    parsed = []
    for n, line in enumerate(lines, 1):
        try:
            parsed.append(json.loads(line))
        except (ValueError, RecursionError):      # not JSON, or nested thousands deep
            raise JournalError(msg("ui.journal_damaged", line=n)) from None
    if not parsed or not all(isinstance(p, dict) for p in parsed) or \
            parsed[0].get("journal") != FORMAT:
        raise JournalError(msg("ui.journal_not_one"))
    return Contents(parsed[0], parsed[1:], torn)


def header(path: Path) -> dict:
    """Only the header line: enough to know a journal without replaying it."""
    with open(path, "rb") as f:
        first = f.readline()
    try:
        parsed = json.loads(first)
    except (ValueError, RecursionError):
        raise JournalError(msg("ui.journal_damaged", line=1)) from None
    if not isinstance(parsed, dict) or parsed.get("journal") != FORMAT:
        raise JournalError(msg("ui.journal_not_one"))
    return parsed


def drop_torn_tail(path: Path) -> None:
    """Cut the file back to its last whole line, so appends start on a clean line."""
    raw = path.read_bytes()
    keep = raw.rfind(b"\n") + 1
    if keep < len(raw):
        with open(path, "r+b") as f:
            f.truncate(keep)
            f.flush()
            os.fsync(f.fileno())


def resume(path: Path) -> Resumed:
    """Rebuild the game of a journal, checking the rules version and every state hash."""
    contents = read(path)
    session = _new_session(contents.header)
    effects: tuple[Msg, ...] = ()
    end = elapsed = None
    for n, line in enumerate(contents.records, 2):
        if end is not None:                   # nothing follows the end of a game
            raise JournalError(msg("ui.journal_damaged", line=n))
        played = _elapsed(line, n)
        if line.get("op") == "end":
            if line.get("result") not in ("finished", "abandoned") or \
                    not isinstance(line.get("started", ""), str):
                raise JournalError(msg("ui.journal_damaged", line=n))
            end = line
        else:
            effects = _replay(session, line, n)
            elapsed = played if played is not None else elapsed
    return Resumed(contents.header, session, contents.header.get("deck"), contents.records,
                   contents.torn, effects, end, elapsed)


def _elapsed(record: dict, n: int) -> float | None:
    """A line's seconds played, None if it has none (written before they were kept);
    JournalError if it is not a finite count of seconds."""
    if "elapsed" not in record:
        return None
    given = record["elapsed"]
    try:
        if isinstance(given, bool) or not isinstance(given, (int, float)):
            raise ValueError(given)
        seconds = float(given)             # OverflowError: an integer past any float
    except (ValueError, OverflowError):
        raise JournalError(msg("ui.journal_damaged", line=n)) from None
    if not math.isfinite(seconds) or seconds < 0:
        raise JournalError(msg("ui.journal_damaged", line=n))
    return seconds


def _new_session(header: dict) -> Session:
    game = header.get("game")
    try:
        spec = engine.get(game) if isinstance(game, str) else None
    except KeyError:
        spec = None
    if spec is None:                          # no such game, or not even a name
        raise JournalError(msg("ui.journal_unknown_game", game=game))
    if header.get("rules_version") != spec.rules_version:
        raise JournalError(msg("ui.journal_rules", game=spec.name(),
                               saved=header.get("rules_version"), now=spec.rules_version))
    try:
        return Session(spec, config_from_plain(header["config"]))
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        raise JournalError(msg("ui.journal_damaged", line=1)) from None


def _replay(session: Session, record: dict, n: int) -> tuple[Msg, ...]:
    """Apply one saved operation; its effects, or JournalError if it does not fit."""
    try:
        event = event_from_json(record["event"]) if "event" in record else None
        op = Op(record["op"], event)
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        raise JournalError(msg("ui.journal_damaged", line=n)) from None
    if op.kind not in ("event", "undo", "redo") or (op.kind == "event") != (event is not None):
        raise JournalError(msg("ui.journal_damaged", line=n))
    outcome = session.apply_op(op)
    if not isinstance(outcome, engine.Accepted) or state_hash(session.state) != record.get("hash"):
        raise JournalError(msg("ui.journal_mismatch", line=n))
    return outcome.effects


def last_input(path: Path) -> int:
    """The input number of the last saved line (0 if none): where a re-fed input resumes."""
    try:
        contents = read(path)
    except JournalError:
        return 0
    sources = [r["in"] for r in [contents.header, *contents.records] if "in" in r]
    return sources[-1] if sources else 0
