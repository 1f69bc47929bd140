"""The table's OLED for the café's back office: the frame the players see, packed one bit a
pixel (128x64: 1,024 bytes, in base64 in the state message), so staff see each table's screen
without a camera.

A frame is drawn at most every SCREEN_EVERY_S on the table's monotonic clock: a flurry of
presses sends a few frames a second, and the last screen of the flurry leaves at the next tick
after the pause (the state follows every tick: device/fleet/plugin.py).
"""
from __future__ import annotations

import base64
from collections.abc import Callable

from device.ui.render import SIZE, render

SCREEN_EVERY_S = 0.25
PACKED_BYTES = SIZE[0] * SIZE[1] // 8          # rows of 16 bytes, the leftmost pixel high


def packed(image) -> str:
    """A 1-bit frame as the state message carries it."""
    return base64.b64encode(image.convert("1").tobytes()).decode("ascii")


class ScreenFeed:
    """The latest frame to send, redrawn only when the screen changed and the pause is over."""

    def __init__(self, monotonic: Callable[[], float], every: float = SCREEN_EVERY_S) -> None:
        self.monotonic, self.every = monotonic, every
        self._screen = None
        self._frame: str | None = None
        self._drawn: float | None = None

    def frame(self, app) -> str | None:
        now = self.monotonic()
        if self._drawn is not None and now - self._drawn < self.every:
            return self._frame
        screen = app.screen()
        if screen != self._screen or self._frame is None:
            self._screen, self._frame, self._drawn = screen, packed(render(screen)), now
        return self._frame
