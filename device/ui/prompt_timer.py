"""Prompts that close by themselves: a prompt may say that, left untouched for some seconds,
it closes as a Confirm would (Tamalou's last snaps, by its `last_snap_s` house rule).

This plugin gives such a prompt its countdown: the seconds left stand in the header's right
side, and when the time is up and nothing is asked over it, it sends the same Confirm a
SELECT would, so the journal and a replay see an ordinary input. The countdown starts again
in each new state (a snap onto the new top card).
"""
from __future__ import annotations

import math
from dataclasses import replace

from device.actions import NOTHING, Actions, Play
from device.plugin import Plugin
from device.ui.screen import Screen
from engine.core.events import Confirm

from .playing import Playing


class PromptTimer(Plugin):
    order = 60              # after learned card data, before the sounds

    def __init__(self) -> None:
        self.due: float | None = None
        self.since: int | None = None        # the state (seq) the countdown started in

    def after_input(self, app) -> None:
        self._follow(app)

    def _follow(self, app) -> None:
        """Start the countdown when such a prompt comes up (after an input, a message, a resume)."""
        state, seconds = _waiting(app)
        if seconds is None:
            self.due = self.since = None
        elif state.seq != self.since:
            self.due, self.since = app.clock.monotonic() + seconds, state.seq

    def deadline(self, app) -> float | None:
        """The end of the countdown, and each whole second before it (the header counts down)."""
        self._follow(app)
        if self.due is None:
            return None
        left = self.due - app.clock.monotonic()
        return self.due - (math.ceil(left) - 1) if left > 1 else self.due

    def screen(self, app, screen: Screen) -> Screen:
        if self.due is None or _waiting(app)[1] is None or screen.blank or screen.drift:
            return screen
        left = max(0, math.ceil(self.due - app.clock.monotonic()))
        return replace(screen, header_right=app.t("ui.seconds_left", n=left))

    def tick(self, app) -> Actions:
        if self.due is not None and app.clock.monotonic() >= self.due and _waiting(app)[1] is not None:
            self.due = None
            return [Play(Confirm())]
        return NOTHING


def _waiting(app):
    """The game state and the prompt's seconds while the table is on a prompt that closes by
    itself, else (None, None): a question over it, the global menu or a message keep it open."""
    session = app.session
    if session is None or not isinstance(app.mode, Playing) or app.overlay is not None:
        return None, None
    return session.state, app.view()[0].closes_after_s
