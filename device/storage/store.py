"""The state dir's games: the running journal, the archive, and what is kept aside.

    <state dir>/current.jsonl        the game in progress
    <state dir>/archive/*.jsonl      finished and abandoned games (retention: the newest N)
    <state dir>/aside/*              journals (and databases) that could not be used,
                                     kept for a person: never resumed, never deleted
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable

from engine import Session
from engine.core.session import Op
from engine.core.text import Msg

from . import journal
from .journal import Journal, JournalError, Resumed

log = logging.getLogger(__name__)

DEFAULT_RETENTION = 200


def numbered(folder: Path, tag: str, suffix: str = ".jsonl") -> Path:
    """The next free `NNNNNN-tag` name in a folder, numbered after everything already there."""
    folder.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[:6]) for p in folder.iterdir() if p.name[:6].isdigit()]
    return folder / f"{max(numbers, default=0) + 1:06d}-{tag}{suffix}"


class GameStore:
    def __init__(self, state_dir: Path, retention: int = DEFAULT_RETENTION) -> None:
        self.dir = state_dir
        self.retention = retention
        self.journal: Journal | None = None
        self.on_finished: list[Callable[[Path], None]] = []   # each gets a finished game's archive

    @property
    def current(self) -> Path:
        return self.dir / "current.jsonl"

    def start(self, session: Session, deck: str | None, now: str,
              source: int | None = None) -> str | None:
        """Put away any unfinished game, then open a new journal; the error text if the disk fails."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.journal is None:
            self.resume()          # a game left on disk is checked first: damaged ones go aside
        if self.journal is not None:
            self.finish(abandoned=True, now=now)
        self.journal = Journal.create(self.current, journal.header_for(session, deck, now, source))
        return self.journal.error

    def record(self, kind: str, event, state, source: int | None) -> str | None:
        """Journal one accepted operation; the error text if it is not on disk (it stays pending)."""
        if self.journal is None:
            return "no journal"
        ok = self.journal.append(journal.record_for(Op(kind, event), state, source))
        return None if ok else self.journal.error

    def flush(self) -> str | None:
        """Try again what the disk refused; the error text while it still does."""
        if self.journal is None or self.journal.flush():
            return None
        return self.journal.error

    def resume(self) -> tuple[Resumed | None, Msg | None]:
        """The unfinished game, or why it was kept aside instead (also logged).

        A game whose end was journaled but not archived yet (power cut in between) is archived now.
        """
        if not self.current.exists():
            return None, None
        try:
            resumed = journal.resume(self.current)
        except JournalError as exc:
            path = self._move(self.current, "aside", "unresumable")
            log.error("cannot resume the saved game (%s): kept aside as %s", exc, path)
            return None, exc.reason
        if resumed.torn:
            log.warning("dropped a torn last line in %s", self.current)
            journal.drop_torn_tail(self.current)
        if resumed.end is not None:
            self._archive(resumed.end["result"])
            return None, None
        self.journal = Journal(self.current)
        return resumed, None

    def finish(self, abandoned: bool, now: str, source: int | None = None) -> Path | None:
        """Journal the end, then archive the game; the archived file, if there was one."""
        if self.journal is None:
            return None
        if not self.journal.append(journal.end_record(abandoned, now, source)):
            log.error("game archived without its last %d lines: %s",
                      self.journal.unsaved, self.journal.error)
        self._close()
        if not self.current.exists():
            return None
        return self._archive("abandoned" if abandoned else "finished")

    def close(self) -> None:
        """Stop writing (the journal is already on disk line by line)."""
        self._close()

    def archived(self) -> list[Path]:
        return sorted((self.dir / "archive").glob("*.jsonl"))

    def _close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def _archive(self, result: str) -> Path:
        path = self._move(self.current, "archive", result)
        self._trim(path.parent)
        if result == "finished":
            for callback in self.on_finished:
                callback(path)
        return path

    def _move(self, path: Path, folder: str, tag: str) -> Path:
        target = numbered(self.dir / folder, tag)
        os.replace(path, target)
        return target

    def _trim(self, folder: Path) -> None:
        """Keep the newest `retention` archived games, so the state dir never grows without bound."""
        games = sorted(folder.glob("*.jsonl"))
        for old in games[:max(0, len(games) - self.retention)]:
            old.unlink(missing_ok=True)
