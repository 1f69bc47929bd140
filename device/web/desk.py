"""Where the table and its page meet: the loop leaves each new frame here, the page takes
the latest, and the page's input lines go through here to the loop.

The loop's side costs a frame what it costs to note it: `publish` keeps the image and the
view (read from the app on the loop's own thread, the only one that may), and tells
`on_change`, which wakes the web's thread only when it is not looking for new frames by
itself already (device/web/watch.py). The PNG
is made on the web's thread, once per frame, for whoever asks first. The join code is
renewed when a game ends or another replaces it.
"""
from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device.ui.screen import Screen
from device.ui.setup_choices import roster_of

from .explain import setup_choices
from .joining import Joining
from .lines import Told, add_name, setup_line, view_now
from .view import view
from .words import say


@dataclass
class Frame:
    """One published frame: its number, its picture and the page's view of it."""

    version: int
    image: Any
    view: dict[str, Any]
    _png: bytes | None = field(default=None, repr=False)
    _event: bytes | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def event(self) -> bytes:
        """The view as one server-sent event (made on the web's thread, once)."""
        if self._event is None:
            self._event = b"data: " + json.dumps(self.view).encode() + b"\n\n"
        return self._event

    def png(self) -> bytes:
        with self._lock:
            if self._png is None:
                out = io.BytesIO()
                self.image.save(out, format="PNG")
                self._png = out.getvalue()
            return self._png


class Desk:
    def __init__(self, app, joining: Joining) -> None:
        self.app = app
        self.joining = joining
        self.latest: Frame | None = None
        # set by whoever runs the loop: how an errand runs on the loop's side, and a line
        self.on_loop: Callable[[Callable[[], Any]], Any] | None = None
        self.line: Callable[[str], Told] | None = None
        self.on_change: Callable[[], None] = lambda: None
        self._game = app.session

    def publish(self, image, screen: Screen) -> None:
        """A new frame is out (the loop's thread: Frames' on_frame)."""
        if self._game is not None and self.app.session is not self._game:
            self.joining.renew()                # the game the phones joined is over
        self._game = self.app.session
        version = self.latest.version + 1 if self.latest is not None else 1
        self.latest = Frame(version, image, {"version": version, **view(self.app, screen)})
        self.on_change()

    def take(self, text: str) -> tuple[str | None, dict[str, Any]]:
        """The page's line, carried out on the loop's side (the web's thread waits for it):
        what is wrong with it, or None; and the view after it."""
        line = self.line
        if self.on_loop is None or line is None:
            return say(self.app.language, "web.not_ready"), {"version": 0}
        problem, shown = self.on_loop(lambda: (self._carried(line(text)), view_now(self.app)))
        return problem, {"version": self.latest.version if self.latest else 0, **shown}

    def setup(self, text: str) -> tuple[str | None, dict[str, Any]]:
        """The page's setup line (device/ui/setup_lines.py), on the loop's side: what is
        wrong with it, or None; and the view after it."""
        if self.on_loop is None:
            return say(self.app.language, "web.not_ready"), {"version": 0}
        problem, shown = self.on_loop(lambda: (self._carried(setup_line(self.app, text)),
                                               view_now(self.app)))
        return problem, {"version": self.latest.version if self.latest else 0, **shown}

    def setup_now(self) -> dict[str, Any]:
        """The games the page offers and the setup on now (read on the loop's side)."""
        if self.on_loop is None:
            return {"games": [], "setup": None}
        return self.on_loop(lambda: setup_choices(self.app))

    def names(self) -> list[str]:
        """The roster's names as the setup offers them (read on the loop's side)."""
        if self.on_loop is None:
            return []
        return self.on_loop(lambda: [player.short for player in roster_of(self.app)])

    def add_name(self, name: str) -> str | None:
        """A name typed on the page, to the roster (on the loop's side): what is wrong, or None."""
        if self.on_loop is None:
            return say(self.app.language, "web.not_ready")
        return self.on_loop(lambda: self._carried(add_name(self.app, name)))

    def _carried(self, told: Told) -> str | None:
        """On the loop's side, as the loop does with a mode's answer: the app does what the
        page's line asked; what was wrong with it, or None."""
        problem, actions = told
        self.app.apply(actions)
        return problem
