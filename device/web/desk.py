"""Where the table and its page meet: the loop leaves each new frame here, the page takes
the latest, and the page's input lines go through here to the loop.

The loop's side costs a frame what it costs to note it: `publish` keeps the image and the
view (read from the app on the loop's own thread, the only one that may) and wakes the
page's streams through `on_change`, which only schedules work on the web's thread. The PNG
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

from .joining import Joining
from .view import view

# The page's input line, carried out on the loop's side: (the refusal, or None; the view after)
Carry = Callable[[str], tuple[str | None, dict[str, Any]]]


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
        self.carry: Carry | None = None          # set by whoever runs the loop
        self.on_change: Callable[[], None] = lambda: None
        self.on_code: Callable[[str], None] = lambda code: None
        self._game = app.session

    def publish(self, image, screen: Screen) -> None:
        """A new frame is out (the loop's thread: Frames' on_frame)."""
        if self._game is not None and self.app.session is not self._game:
            self.joining.renew()                # the game the phones joined is over
            self.on_code(self.joining.code)
        self._game = self.app.session
        version = self.latest.version + 1 if self.latest is not None else 1
        self.latest = Frame(version, image, {"version": version, **view(self.app, screen)})
        self.on_change()

    def take(self, line: str) -> tuple[str | None, dict[str, Any]]:
        """The page's line, carried out by the loop's side (the web's thread waits for it)."""
        version = self.latest.version if self.latest is not None else 0
        if self.carry is None:
            return "the table is not ready", {"version": version}
        problem, shown = self.carry(line)
        version = self.latest.version if self.latest is not None else 0
        return problem, {"version": version, **shown}
