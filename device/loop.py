"""The one event loop: inputs in, the app decides, the display shows the frame if it changed."""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from device.ui.render import render
from device.ui.screen import Screen

from .inputs import Tick

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Errand:
    """Work another thread hands the loop (the table's page: a line typed on a phone), done on
    the loop's thread in turn with the other inputs: the only thread that changes the app."""

    run: Callable[[], None]


class Frames:
    """Renders the app's screen and sends it to the displays only when it changed.

    The app's `display_level` (normal, dim, off) becomes the panels' contrast, and its
    `brightness`, when staff chose one, replaces the configured normal contrast. A display
    fault never stops the game; `on_first` runs once the first frame is out (systemd READY).
    """

    def __init__(self, *displays, on_frame: Callable | None = None,
                 on_first: Callable[[], None] | None = None) -> None:
        self.displays = displays
        self.on_frame = on_frame
        self.on_first = on_first
        self.last: Screen | None = None
        self.level = "normal"
        self.brightness: int | None = None
        self.count = 0

    def update(self, app) -> bool:
        self._tend()
        self._set_level(app.display_level, app.brightness)
        screen = app.screen()
        if screen == self.last:
            return False
        image = render(screen)
        self.last = screen
        self.count += 1
        for display in self.displays:
            try:
                display.show(image)
            except Exception as exc:
                log.error("display failed: %s", exc)
        if self.on_frame:
            self.on_frame(image, screen)
        if self.count == 1 and self.on_first:
            self.on_first()
        return True

    def _tend(self) -> None:
        """Each turn of the loop, a panel that was lost is tried again (and redrawn with
        the frame it last took) and a quiet one is asked whether it is still there."""
        for display in self.displays:
            tend = getattr(display, "tend", None)
            if tend is not None:
                try:
                    tend()
                except Exception as exc:
                    log.error("display failed: %s", exc)

    def _set_level(self, level: str, brightness: int | None) -> None:
        if (level, brightness) == (self.level, self.brightness):
            return
        self.level, self.brightness = level, brightness
        for display in self.displays:
            try:
                if level == "normal" and brightness is not None:
                    display.contrast(brightness)
                elif hasattr(display, "dim"):
                    display.dim(level != "normal")
            except Exception as exc:
                log.error("display contrast failed: %s", exc)


def run_forever(app, inputs: queue.Queue, frames: Frames, clock: Callable[[], float],
                stop: threading.Event, heartbeat: Callable[[], None] = lambda: None) -> None:
    """The appliance's loop: wait for an input or the next timer, handle it, redraw."""
    frames.update(app)
    while not stop.is_set():
        deadline = app.next_deadline()
        timeout = 1.0 if deadline is None else min(1.0, max(0.0, deadline - clock()))
        try:
            event = inputs.get(timeout=timeout)
        except queue.Empty:
            event = Tick()
        if isinstance(event, Errand):
            event.run()
        else:
            app.handle(event)
        if not isinstance(event, Tick):        # a Tick was just handled: its timers have run
            app.tick()                         # after any other input, due timers fire too
        frames.update(app)
        if app.settle():                       # the frame first, then a game's end recorded
            frames.update(app)
        heartbeat()
