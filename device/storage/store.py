"""The state dir's games: the running journal, the archive, and what is kept aside.

The store keeps the running game's time: seconds played on the monotonic clock, written
with each line, going on from the journal's last ones after a restart (journal.py).

    <state dir>/current.jsonl        the game in progress
    <state dir>/archive/*.jsonl      finished and abandoned games (retention: the newest N)
    <state dir>/result.json          the id of the finished game whose result is on screen,
                                     until someone leaves it: a restart shows it again
    <state dir>/unreadable/*         a saved game that could not be resumed, with its
                                     reason beside it (quarantine.py): never deleted
"""
from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

from device.clock import Clock, Stamp, SystemClock, redate, stamp
from device.paths import numbered, write_atomic
from engine import Session
from engine.core.session import Op
from engine.core.text import Msg, msg, render

from . import journal, quarantine
from .journal import Journal, JournalError, Played, Resumed

log = logging.getLogger(__name__)

DEFAULT_RETENTION = 200
RESULT = "result.json"


class GameStore:
    def __init__(self, state_dir: Path, retention: int = DEFAULT_RETENTION,
                 clock: Clock | None = None) -> None:
        self.dir = state_dir
        self.retention = retention
        self.clock: Clock = clock or SystemClock()
        self.journal: Journal | None = None
        self.error: str | None = None     # why the last start or finish failed
        self.on_finished: list[Callable[[Path], None]] = []   # each gets a finished game's archive
        self.began: Stamp | None = None   # the running game's start (`at` None: another run's)
        self.recorded = 0.0               # seconds played at its last operation on disk
        self.ended: Played | None = None  # the game that ended last: its length and start
        self.result_id: str | None = None  # the id of the finished game whose result is shown
        self.game_id: str | None = None    # the running game's id, as its header says
        self._played = 0.0                # seconds played before this run took the game up
        self._since = 0.0                 # the monotonic time this run took it up

    def elapsed(self) -> float:
        """Seconds the running game has been played, on the monotonic clock (0 with none)."""
        if self.journal is None:
            return 0.0
        return self._played + max(0.0, self.clock.monotonic() - self._since)

    def _take_up(self, began: Stamp | None, played: float) -> None:
        self.began, self.recorded, self._played = began, played, played
        self._since = self.clock.monotonic()

    @property
    def current(self) -> Path:
        return self.dir / "current.jsonl"

    @property
    def result(self) -> Path:
        return self.dir / RESULT

    def start(self, session: Session, deck: str | None, source: int | None = None) -> str | None:
        """Put away any unfinished game, then open a new journal; the error text if the disk fails.

        A game left on disk that cannot be archived stays where it is, and no new one starts
        over it: the error text says why.
        """
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return self._fault(exc)
        if self.journal is None:
            self.resume()          # a game left on disk is checked first: damaged ones go aside
        if self.journal is not None and self.finish(abandoned=True) is None \
                and self.error is not None:
            return self.error
        if self.current.exists():
            return self.error or "unfinished game left in place"
        self.leave_result()
        began = stamp(self.clock)
        header = journal.header_for(session, deck, began.label, source)
        self.journal, self.game_id = Journal.create(self.current, header), header["id"]
        self._take_up(began, 0.0)
        return self.journal.error

    def record(self, kind: str, event, state, source: int | None) -> str | None:
        """Journal one operation before it is taken; the error text if it is not on disk
        (then the operation must not be taken: nothing of it was kept)."""
        if self.journal is None:
            return "no journal"
        elapsed = self.elapsed()
        ok = self.journal.append(journal.record_for(Op(kind, event), state, source, elapsed))
        if ok:
            self.recorded = elapsed
        return None if ok else self.journal.error

    def retry(self) -> str | None:
        """Whether the disk takes writes again: a header still waiting, else a small probe
        file written, fsynced and removed; the error text while the disk refuses."""
        if self.journal is not None and not self.journal.saved:
            return None if self.journal.flush() else self.journal.error
        probe = self.dir / ".probe"
        try:
            write_atomic(probe, "")
            probe.unlink()
        except OSError as exc:
            return self._fault(exc)
        return None

    def resume(self) -> tuple[Resumed | None, Msg | None]:
        """The unfinished game, or why it was kept aside instead (also logged).

        A game whose end was journaled but not archived yet (power cut in between) is archived now.
        """
        if not self.current.exists():
            return self._result_shown(), None
        try:
            resumed = journal.resume(self.current)
        except JournalError as exc:       # out of the way of the next game: always moved
            quarantine.refuse(self.dir, self.current, f"cannot resume: {render(exc.reason)}",
                              always=True, tell=False)      # the app says it with the reason
            return None, exc.reason
        if resumed.torn:
            log.warning("dropped a torn last line in %s", self.current)
        if resumed.end is not None:
            try:
                journal.drop_torn_tail(self.current)       # archived whole, and only whole
                self.ended = journal.played(resumed)
                self._archive(resumed.end["result"])
            except OSError as exc:   # shown as it stands; archived once the disk takes it
                log.error("ended game not archived yet: %s", self._fault(exc))
                return resumed, None
            return self._result_shown(), None
        self.journal = Journal(self.current)
        found = resumed.header.get("id")
        self.game_id = found if isinstance(found, str) else None
        # its start label was written by another run: only this run's labels can be re-dated
        label = resumed.header.get("started")
        self._take_up(Stamp(label, None) if isinstance(label, str) else None,
                      resumed.elapsed or 0.0)
        if self.journal.error:
            self.error = self.journal.error
        return resumed, None

    def finish(self, abandoned: bool, source: int | None = None) -> Path | None:
        """Journal the end, then archive the game; the archived file, if there was one.

        A game that finished (the moment its last operation is on disk) is noted first as the
        result on screen, so a restart anywhere from here shows it until someone leaves it.
        If the end line is refused, the game goes on
        (`error` says why, None is returned); if only the move to the archive fails, the ended
        game stays as the current one and is archived the next time the store looks (a game
        is archived only whole).
        """
        self.error, self.ended = None, None
        if self.journal is None:
            return None
        if not self.journal.saved:          # not even its header on disk: nothing to keep
            self._close()
            return None
        if not abandoned:
            self._note_result()
            journal.stop_here("noted")
        began = redate(self.began, self.clock) if self.began is not None else None
        corrected = began is not None and began.corrected
        end = journal.end_record(abandoned, self.clock.wall(), source, self.elapsed(),
                                 began.label if began is not None and corrected else None)
        if not self.journal.append(end):
            self.error = self.journal.error
            log.error("the game's end was not saved: %s", self.error)
            return None
        self.ended = Played(self.recorded, began.label if began is not None else None, corrected)
        self._close()
        try:
            return self._archive("abandoned" if abandoned else "finished")
        except OSError as exc:
            log.error("ended game left as the current one, not archived: %s", self._fault(exc))
            return None

    def close(self) -> None:
        """Stop writing (the journal is already on disk line by line)."""
        self._close()

    def leave_result(self) -> None:
        """The finished game's result is left (SELECT, a new game): a restart no longer shows it."""
        self.result_id = None
        try:
            self.result.unlink(missing_ok=True)
        except OSError as exc:
            log.error("the result shown is still noted: %s", exc.strerror or exc)

    def _note_result(self) -> None:
        """Note the running game as the result on screen (its id, kept from its header rather
        than read back: a game's end reads its journal once, for the history), before its end
        is written."""
        self.result_id = self.game_id
        try:
            write_atomic(self.result, json.dumps({"id": self.game_id}))
        except OSError as exc:   # the record stands: only a restart's screen differs
            log.error("the result shown not noted: %s", exc)

    def _result_shown(self) -> Resumed | None:
        """The finished game whose result was on screen when the table stopped, read from the
        archive (its end already written: nothing of it is written again); None if none."""
        try:
            noted = json.loads(self.result.read_bytes())
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.error("%s not read: %s", RESULT, exc.strerror or exc)
            return None
        except (ValueError, RecursionError):     # not UTF-8, not JSON
            noted = None
        game_id = noted.get("id") if isinstance(noted, dict) else None
        if not isinstance(game_id, str):
            line = quarantine.refuse(self.dir, self.result, "not the id of a game's result")
            if not quarantine.watched(self.dir):
                log.error("%s", line)
            return None
        shown = self.archived()
        try:
            if not shown or journal.header(shown[-1]).get("id") != game_id:
                raise JournalError(msg("ui.journal_not_one"))
            resumed = journal.resume(shown[-1])
        except (OSError, JournalError):          # not the newest game's: it was left already
            self.leave_result()
            return None
        self.ended, self.result_id = journal.played(resumed), game_id
        return resumed

    def _fault(self, exc: OSError) -> str:
        self.error = exc.strerror or str(exc)
        return self.error

    def archived(self) -> list[Path]:
        return sorted((self.dir / "archive").glob("*.jsonl"))

    def _close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        self.began = None

    def _archive(self, result: str) -> Path:
        path = self._move(self.current, "archive", result)
        journal.stop_here("archived")
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
