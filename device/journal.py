"""The crash-safe journal: one append-only JSONL file per game (DESIGN.md §5, notes D6).

Line 1 is the header (game, players, options, deck, rules version). Every
accepted input follows as one line with the state hash after it, written and
fsynced before the screen acknowledges the event. Resume replays the lines and
checks every hash; a torn last line (a power cut mid-write) is dropped and
reported; anything else that does not fit is kept aside, never resumed silently.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine import Session
from engine.core.codec import config_from_plain, config_to_plain, state_hash
from engine.core.events import event_from_json, event_to_json
from engine.core.session import Op

FORMAT = 1


class JournalError(Exception):
    """A journal that cannot be resumed as it is; the text says why, for the screen and log."""


@dataclass
class Contents:
    header: dict
    records: list[dict]
    torn: bool = False           # the last line was cut short and dropped


@dataclass
class Resumed:
    session: Session
    deck: str | None
    records: list[dict]
    torn: bool
    warnings: list[str] = field(default_factory=list)


def header_for(session: Session, deck: str | None, started: str) -> dict:
    spec = session.spec
    return {"journal": FORMAT, "game": spec.id, "config": config_to_plain(session.config),
            "deck": deck, "rules_version": spec.rules_version, "started": started}


def record_for(op: Op, state, source: int | None = None) -> dict:
    record = {"op": op.kind, "seq": state.seq, "hash": state_hash(state)}
    if op.event is not None:
        record["event"] = event_to_json(op.event)
    if source is not None:
        record["in"] = source
    return record


def _line(record: dict) -> bytes:
    return (json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n").encode()


class Journal:
    """An open journal file. Appends that fail stay pending and are retried with the next one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open(path, "ab")
        self._good_size = self._file.tell()
        self._pending: list[bytes] = []
        self.error: str | None = None
        self.last_sync_s: float = 0.0

    @classmethod
    def create(cls, path: Path, header: dict) -> "Journal":
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(_line(header))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _sync_dir(path.parent)
        return cls(path)

    def append(self, record: dict) -> bool:
        """Write the record (and any earlier one still pending) and fsync; False on a disk error."""
        self._pending.append(_line(record))
        try:
            self._file.write(b"".join(self._pending))
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            self.error = exc.strerror or str(exc)
            self._rewind()
            return False
        self._good_size = self._file.tell()
        self._pending.clear()
        self.error = None
        return True

    @property
    def unsaved(self) -> int:
        return len(self._pending)

    def _rewind(self) -> None:
        """Cut a partial write back off, so the file never holds a torn line mid-journal."""
        try:
            self._file.truncate(self._good_size)
            self._file.seek(self._good_size)
        except OSError:
            pass

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass


def _sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Contents:
    """Parse a journal; JournalError if it is not one, or is damaged before its last line.

    A last line without its newline was never acknowledged (lines are fsynced whole), so it is
    dropped even when it happens to be valid JSON: its input is simply taken again.
    """
    lines = path.read_bytes().split(b"\n")
    torn = lines.pop() != b""
    parsed = []
    for n, line in enumerate(lines, 1):
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise JournalError(f"line {n} of {path.name} is damaged") from None
    if not parsed or not isinstance(parsed[0], dict) or parsed[0].get("journal") != FORMAT:
        raise JournalError(f"{path.name} is not a journal of this version")
    return Contents(parsed[0], parsed[1:], torn)


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
    header = contents.header
    try:
        spec = engine.get(header["game"])
    except KeyError:
        raise JournalError(f"unknown game {header.get('game')!r}") from None
    if header.get("rules_version") != spec.rules_version:
        raise JournalError(f"rules version {header.get('rules_version')} is not "
                           f"{spec.title}'s {spec.rules_version}")
    session = Session(spec, config_from_plain(header["config"]))
    for n, record in enumerate(contents.records, 2):
        op = Op(record["op"], event_from_json(record["event"]) if "event" in record else None)
        outcome = session.apply_op(op)
        if not isinstance(outcome, engine.Accepted) or state_hash(session.state) != record.get("hash"):
            raise JournalError(f"line {n}: the game does not replay to the saved state")
    warnings = ["Last entry was cut short and dropped"] if contents.torn else []
    return Resumed(session, header.get("deck"), contents.records, contents.torn, warnings)


def last_input(path: Path) -> int:
    """The input number of the last saved op (0 if none): where a re-fed input resumes."""
    try:
        records = read(path).records
    except (OSError, JournalError):
        return 0
    sources = [r["in"] for r in records if "in" in r]
    return sources[-1] if sources else 0
