"""The state dir's games: the running journal, the archive, and what is kept aside.

    <state dir>/current.jsonl        the game in progress
    <state dir>/archive/*.jsonl      finished and abandoned games (retention: newest N)
    <state dir>/aside/*.jsonl        journals that could not be resumed, kept for a person
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from engine import Session
from engine.core.session import Op

from . import journal
from .journal import Journal, JournalError, Resumed

log = logging.getLogger(__name__)

DEFAULT_RETENTION = 200


class GameStore:
    def __init__(self, state_dir: Path, retention: int = DEFAULT_RETENTION) -> None:
        self.dir = state_dir
        self.retention = retention
        self.journal: Journal | None = None
        self.on_finished: list = []        # callbacks(path) once a game is archived

    @property
    def current(self) -> Path:
        return self.dir / "current.jsonl"

    def start(self, session: Session, deck: str | None, now: str) -> str | None:
        """Archive any unfinished game, then open a new journal; the error text if the disk fails."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.current.exists():
            self._close()
            self._move(self.current, "archive", "abandoned")
        try:
            self.journal = Journal.create(self.current, journal.header_for(session, deck, now))
        except OSError as exc:
            self.journal = None
            return exc.strerror or str(exc)
        return None

    def record(self, kind: str, event, state, source: int | None) -> str | None:
        if self.journal is None:
            return "no journal"
        ok = self.journal.append(journal.record_for(Op(kind, event), state, source))
        return None if ok else self.journal.error

    def resume(self) -> tuple[Resumed | None, str | None]:
        """The unfinished game, or why it was kept aside instead."""
        if not self.current.exists():
            return None, None
        try:
            resumed = journal.resume(self.current)
        except (JournalError, OSError, KeyError, ValueError) as exc:
            log.error("cannot resume %s: %s", self.current, exc)
            self._move(self.current, "aside", "unresumable")
            return None, str(exc)
        if resumed.torn:
            log.warning("dropped a torn last line in %s", self.current)
            journal.drop_torn_tail(self.current)
        self.journal = Journal(self.current)
        return resumed, None

    def finish(self, session: Session, deck: str | None, abandoned: bool, now: str) -> Path | None:
        self._close()
        if not self.current.exists():
            return None
        path = self._move(self.current, "archive", "abandoned" if abandoned else "finished")
        for callback in self.on_finished:
            callback(path)
        return path

    def close(self) -> None:
        """Stop writing (the journal is already on disk line by line)."""
        self._close()

    def archived(self) -> list[Path]:
        return sorted((self.dir / "archive").glob("*.jsonl"))

    def _close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def _move(self, path: Path, folder: str, tag: str) -> Path:
        target_dir = self.dir / folder
        target_dir.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[:6]) for p in target_dir.glob("*.jsonl") if p.name[:6].isdigit()]
        target = target_dir / f"{max(numbers, default=0) + 1:06d}-{tag}.jsonl"
        os.replace(path, target)
        if folder == "archive":
            self._trim(target_dir)
        return target

    def _trim(self, folder: Path) -> None:
        """Keep the newest `retention` archived games, so the state dir never grows without bound."""
        games = sorted(folder.glob("*.jsonl"))
        for old in games[:max(0, len(games) - self.retention)]:
            old.unlink(missing_ok=True)
