"""How long a table has been taken and how long its game has lasted, for the dashboard.

A sitting starts with a game and lasts through the games that follow, until the table
is left free for longer than SITTING_GAP_S: then the next game starts a new one. The gap is
measured on the monotonic clock, so setting the wall clock never starts or joins a sitting.
The game's start is the store's, so a table restarted mid-game still counts from it; the
labels are re-dated when the wall clock jumps (device/clock.py).
"""
from __future__ import annotations

from device.clock import Stamp, redate, stamp

SITTING_GAP_S = 15 * 60


class Sitting:
    def __init__(self) -> None:
        self.session: object = None
        self.seated: Stamp | None = None
        self.started: Stamp | None = None
        self.ended: Stamp | None = None
        self.left: float | None = None        # monotonic time the table was left free

    def follow(self, app, over: bool) -> dict:
        """The times the state message carries: seated, game started and ended (or None)."""
        session, clock = app.session, app.clock
        if session is not self.session:
            self.session, now = session, stamp(clock)
            if session is None:
                self.left, self.started = now.at, None
            else:
                start = app.store.began or now
                if self.seated is None or (self.left is not None and now.at is not None
                                           and now.at - self.left > SITTING_GAP_S):
                    self.seated = start
                self.started, self.left = start, None
        self.ended = (self.ended or stamp(clock)) if session is not None and over else None
        self.seated, self.started, self.ended = (
            redate(mark, clock) if mark is not None else None
            for mark in (self.seated, self.started, self.ended))
        return {"seated": _label(self.seated) if session is not None else None,
                "started": _label(self.started), "ended": _label(self.ended)}


def _label(mark: Stamp | None) -> str | None:
    return mark.label if mark is not None else None
