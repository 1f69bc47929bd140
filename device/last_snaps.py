"""Tamalou's last snaps close by themselves (RULES.md §4.4 LAST SNAPS).

After the final round's last turn the table has `last_snap_s` seconds (a house rule) to
snap onto the last discard; SELECT closes the step at once. This plugin gives the
step its countdown: when the time is up and no snap is being asked about, it sends the
same Confirm a SELECT would, so the journal and a replay see an ordinary input.
Each snap starts the countdown again, for the next card onto the new top.
"""
from __future__ import annotations

from device.plugin import Plugin
from device.ui.playing import Playing
from engine.core.events import Confirm
from engine.core.options import option

PROMPT = "last_snaps"


class LastSnaps(Plugin):
    def __init__(self) -> None:
        self.due: float | None = None
        self.since: int | None = None        # the state (seq) the countdown started in

    def after_input(self, app) -> None:
        self._follow(app)

    def _follow(self, app) -> None:
        """Start the countdown when the prompt comes up (after an input, a message, a resume)."""
        state = _waiting(app)
        if state is None:
            self.due = self.since = None
        elif state.seq != self.since:
            self.due, self.since = app.clock() + option(state.options, "last_snap_s"), state.seq

    def deadline(self, app) -> float | None:
        self._follow(app)
        return self.due

    def tick(self, app) -> None:
        if self.due is not None and app.clock() >= self.due and _waiting(app) is not None:
            self.due = None
            app.play(Confirm())


def _waiting(app):
    """The game state while the table is on the last-snaps prompt itself, else None (a
    snap's "Who discarded?", the global menu or a message over the screen keep it open)."""
    session = app.session
    if session is None or not isinstance(app.mode, Playing) or app.overlay is not None:
        return None
    return session.state if session.spec.prompt(session.state).id == PROMPT else None
