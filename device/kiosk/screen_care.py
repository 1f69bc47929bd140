"""OLED care: an idle panel dims, then shows a drifting screensaver; night hours blank it.

An OLED pixel lit for weeks in one place burns in, and a lower contrast only
slows that down. So after `dim_after_s` without a tap or press the panel dims,
after `screensaver_after_s` the screen gives way to the game's name drifting a
few pixels each minute (no header bar, nothing lit in one place for long), and
inside the `night_blank` hours an idle panel goes dark. The first input on a
screensaver or a dark panel only wakes it: nobody acts on a screen they could
not read. A dimmed screen is still readable, so an input there counts as usual.
Everything follows from the idle time, so the simulator's `wait` gets it right.
"""
from __future__ import annotations

from device.actions import NOTHING, Actions
from device.config import KioskConfig
from device.inputs import ButtonHeld, ButtonPressed, Tapped
from device.plugin import Plugin
from device.ui.font import HEIGHT, WIDTH
from device.ui.render import SIZE
from device.ui.screen import Screen

DRIFT_EVERY_S = 60.0
DRIFT_STEP = (5, 3)                   # pixels a minute, across and down
NIGHT_CHECK_S = 60.0                  # how often the night window is looked at
NIGHT_AWAKE_S = 60.0                  # at night, with no idle step set, how long a woken panel stays on
ASLEEP = ("saver", "night")
LEVELS = {"awake": "normal", "dim": "dim", "saver": "dim", "night": "off"}


def bounce(distance: int, span: int) -> int:
    """A point moving `distance` along 0..span and back, as a ball between two walls."""
    if span <= 0:
        return 0
    place = distance % (2 * span)
    return place if place <= span else 2 * span - place


class ScreenCare(Plugin):
    order = 20            # before whatever shows over a screen: a sleeping panel wakes first

    def __init__(self, kiosk: KioskConfig) -> None:
        self.dim_after = kiosk.dim_after_s
        self.saver_after = kiosk.screensaver_after_s
        self.night = kiosk.night_blank
        self.stage = "awake"

    # ---- hooks --------------------------------------------------------------------

    def on_input(self, app, event) -> Actions | None:
        if not isinstance(event, (Tapped, ButtonPressed, ButtonHeld)):
            return None
        was_asleep = self.stage in ASLEEP
        self._update(app)                      # the app counted this input: awake again
        return NOTHING if was_asleep else None

    def tick(self, app) -> Actions:
        self._update(app)
        return NOTHING

    def display_level(self, app) -> str:
        return LEVELS[self.stage]

    def deadline(self, app) -> float | None:
        idle = self._idle(app)
        steps = [after for after in (self.dim_after, self.saver_after, self._night_after())
                 if after and after > idle]
        if self.stage == "saver":
            steps.append(self.saver_after + DRIFT_EVERY_S * (self._drifts(app) + 1))
        due = [app.last_input + after for after in steps]
        if self.night is not None:
            due.append(app.clock.monotonic() + NIGHT_CHECK_S)
        return min(due) if due else None

    def screen(self, app, screen: Screen) -> Screen:
        if self.stage == "night":
            return Screen(blank=True)
        if self.stage == "saver":
            return self._saver(app)
        return screen

    # ---- inside ---------------------------------------------------------------------

    def _idle(self, app) -> float:
        return app.clock.monotonic() - app.last_input

    def _night_after(self) -> float | None:
        if self.night is None:
            return None
        return self.dim_after or self.saver_after or NIGHT_AWAKE_S

    def _is_night(self, app) -> bool:
        if self.night is None:
            return False
        hour, minute = app.clock.wall()[11:16].split(":")
        return self.night.contains(int(hour), int(minute))

    def _update(self, app) -> None:
        idle, night_after = self._idle(app), self._night_after()
        if night_after is not None and self._is_night(app) and idle >= night_after:
            self.stage = "night"
        elif self.saver_after and idle >= self.saver_after:
            self.stage = "saver"
        elif self.dim_after and idle >= self.dim_after:
            self.stage = "dim"
        else:
            self.stage = "awake"

    def _drifts(self, app) -> int:
        return int((self._idle(app) - self.saver_after) // DRIFT_EVERY_S)

    def _saver(self, app) -> Screen:
        name = app.t(app.session.spec.name() if app.session is not None else "ui.title")
        steps = self._drifts(app)
        span_x, span_y = SIZE[0] - WIDTH * len(name), SIZE[1] - HEIGHT
        # start mid-panel, then wander: every pixel gets its turn at being dark
        x = bounce(span_x // 2 + steps * DRIFT_STEP[0], span_x)
        y = bounce(span_y // 2 + steps * DRIFT_STEP[1], span_y)
        return Screen(lines=(name,), drift=(x, y))
