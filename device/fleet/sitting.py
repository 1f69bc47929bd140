"""How long a table has been taken and how long its game has lasted, for the dashboard.

A sitting starts with a game and lasts through the games that follow, until the table
is left free for longer than SITTING_GAP_S: then the next game starts a new one. The
game's start is its journal's, so a table restarted mid-game still counts from it.
"""
from __future__ import annotations

import datetime
from pathlib import Path

from device.storage.journal import JournalError, read

SITTING_GAP_S = 15 * 60


class Sitting:
    def __init__(self) -> None:
        self.session: object = None
        self.seated: str | None = None
        self.started: str | None = None
        self.ended: str | None = None
        self.left: str | None = None

    def follow(self, app, now: str, over: bool) -> dict:
        """The times the state message carries: seated, game started and ended (or None)."""
        session = app.session
        if session is not self.session:
            self.session = session
            if session is None:
                self.left, self.started = now, None
            else:
                start = game_started(app.store.current) or now
                if self.seated is None or seconds_between(self.left, start) > SITTING_GAP_S:
                    self.seated = start
                self.started, self.left = start, None
        self.ended = (self.ended or now) if session is not None and over else None
        return {"seated": self.seated if session is not None else None,
                "started": self.started, "ended": self.ended}


def game_started(journal: Path) -> str | None:
    """The running game's start, as its journal says (not there yet: the header is written
    with the first event)."""
    try:
        started = read(journal).header.get("started")
    except (JournalError, OSError):
        return None
    return started if isinstance(started, str) else None


def seconds_between(earlier: str | None, later: str) -> float:
    """Seconds from one wall-clock time to another; 0 with no earlier time (the same sitting)."""
    if earlier is None:
        return 0.0
    try:
        return (datetime.datetime.fromisoformat(later)
                - datetime.datetime.fromisoformat(earlier)).total_seconds()
    except (ValueError, TypeError):
        return float("inf")
