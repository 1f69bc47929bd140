"""Feedback you can hear and see: the engine's answers become tones, the table's state a colour.

Players look at their cards, not at the screen, so every answer of the engine
sounds (hardware.feedback.TUNES), and the bigger moment wins when one input
brings several: game_end, then round_end, then turn, then accepted. A refusal,
or a tag no deck knows, sounds `rejected`; an Info tap (a Basket's count) was
read and answered, so it sounds `accepted`.

The LED says, most urgent first: `error` while the reader is offline, the disk refuses
the journal or the display is lost, `card_seen` while a card lies on the reader,
`your_turn` from a change of turn until the engine takes an input that keeps the turn,
`ready` otherwise.

Tones and colours only queue on the parts' own threads (or print, in the
simulator), so the loop never waits for a tune. Quiet hours (kiosk mode) and
the menu's Sound item mute the tones, never the LED.
"""
from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from device.config import TimeWindow
from engine import Rejected
from hardware.events import ButtonStuck
from hardware.feedback import PrintedLed, PrintedTones, StatusLed, Tones

from .actions import NOTHING, Actions
from .inputs import ReaderBack, ReaderOffline, Removed, Tapped
from .plugin import Answered, Plugin, Reading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Moment:
    """What feedback watches in a game state: whose turn, which round, whether it is over."""

    current: str | None
    round: int | None
    over: bool


def moment(reading: Reading, state) -> Moment:
    tally = reading.tally(state)
    return Moment(tally.current, tally.round, reading.spec.result(state) is not None)


def tone_for(before: Moment, after: Moment) -> str:
    """The one tone an accepted input earns: the biggest moment it brought."""
    if after.over and not before.over:
        return "game_end"
    # Round 0 is before the first round (Flouk's deal), not one that ended.
    if before.round and after.round is not None and after.round > before.round:
        return "round_end"
    if after.current is not None and after.current != before.current:
        return "turn"
    return "accepted"


def _now() -> datetime.time:
    return datetime.datetime.now().time()


class Feedback(Plugin):
    """Tones on `tones` (anything with play(name)) and colours on `led` (show(name)); either may be None."""

    order = 70            # after everything that may still change the table's state

    def __init__(self, tones: Any = None, led: Any = None, *, quiet_hours: TimeWindow | None = None,
                 local_time: Callable[[], datetime.time] = _now) -> None:
        self.tones, self.led = tones, led
        self.quiet_hours = quiet_hours
        self.local_time = local_time
        self.sound_on = True
        self._resting = "ready"
        self._cards_on: set[str] = set()    # a reader that tells cards apart may hold several
        self._reader_ok = True
        self._disk_ok = True                # the journal is written (app.faults has no "disk")
        self._display_ok = True             # the panel answers (app.faults has no "display")
        self._stuck: set[str] = set()       # buttons held so long they stopped repeating
        self._shown: str | None = None
        self._light()

    # ---- app hooks ----------------------------------------------------------------

    def on_input(self, app, event) -> None:
        if isinstance(event, Tapped):
            self._cards_on.add(event.uid)
        elif isinstance(event, Removed):
            self._cards_on.discard(event.uid)
        elif isinstance(event, (ReaderOffline, ReaderBack)):
            self._reader_ok = isinstance(event, ReaderBack)
            self._cards_on.clear()
        elif isinstance(event, ButtonStuck):
            (self._stuck.add if event.stuck else self._stuck.discard)(event.name)
        self._light()
        if isinstance(event, Tapped) and event.ref is None and not app.mode.knows(event.uid):
            self._sound("rejected")

    def on_outcome(self, app, outcome: Answered) -> None:
        if not outcome.accepted:
            self._sound("rejected" if isinstance(outcome.answer, Rejected) else "accepted")
            return
        reading = app.reading()              # the states' tallies, as the app and the frame read them
        tone = tone_for(moment(reading, outcome.before), moment(reading, outcome.after))
        # The turn's player keeps their colour until one of their inputs is taken.
        self._resting = "your_turn" if tone == "turn" else "ready"
        self._light()
        self._sound(tone)

    def after_input(self, app) -> None:
        self._watch_faults(app)

    def tick(self, app) -> Actions:
        self._watch_faults(app)
        return NOTHING

    def _watch_faults(self, app) -> None:
        self._watch_disk(app)
        display_ok = "display" not in app.faults    # the table plays on: the LED alone says it
        if display_ok != self._display_ok:
            self._display_ok = display_ok
            self._light()

    def _watch_disk(self, app) -> None:
        """A storage fault turns the LED to `error` and sounds `rejected` once; the LED goes
        back as soon as the journal is written again."""
        disk_ok = "disk" not in app.faults
        if disk_ok != self._disk_ok:
            self._disk_ok = disk_ok
            self._light()
            if not disk_ok:
                self._sound("rejected")

    # ---- the menu's Sound item --------------------------------------------------------

    @property
    def has_sound(self) -> bool:
        return self.tones is not None

    def toggle_sound(self) -> None:
        self.sound_on = not self.sound_on

    # ---- inside ---------------------------------------------------------------------

    def quiet(self) -> bool:
        now = self.local_time()
        return self.quiet_hours is not None and self.quiet_hours.contains(now.hour, now.minute)

    def _sound(self, name: str) -> None:
        if self.tones is not None and self.sound_on and not self.quiet():
            self.tones.play(name)

    def _light(self) -> None:
        healthy = self._reader_ok and self._disk_ok and self._display_ok
        colour = ("error" if not healthy else "button_stuck" if self._stuck
                  else "card_seen" if self._cards_on else self._resting)
        if self.led is not None and colour != self._shown:
            self._shown = colour
            self.led.show(colour)

    def close(self) -> None:
        for part in (self.tones, self.led):
            if part is not None:
                part.close()


def open_feedback(config, *, sim: bool, out: TextIO | None = None,
                  pin_factory: Any = None) -> Feedback | None:
    """The [feedback] parts as a plugin, or their printed twins on `out` in the simulator.

    None when the table has neither part. A part that fails to open is logged
    and left out: the game goes on without it.
    """
    f = config.feedback
    quiet = f.quiet_hours if config.kiosk.enabled else None
    legs = (f.led_red, f.led_green, f.led_blue)
    if sim:
        tones, led = (PrintedTones(out) if f.volume else None), PrintedLed(out)
    else:
        tones = led = None
        if f.buzzer_pin is not None and f.volume:
            tones = _open("buzzer", lambda: Tones(f.buzzer_pin, volume=f.volume,
                                                  pin_factory=pin_factory))
        if None not in legs:
            led = _open("LED", lambda: StatusLed(*legs, common_anode=f.common_anode,
                                                 pin_factory=pin_factory))
        elif any(leg is not None for leg in legs):
            log.warning("feedback: the LED needs led_red, led_green and led_blue; left off")
    if tones is None and led is None:
        return None
    return Feedback(tones, led, quiet_hours=quiet)


def _open(part: str, opener: Callable[[], Any]) -> Any:
    try:
        return opener()
    except Exception as exc:                # no GPIO: the table still plays, silently
        log.error("feedback: the %s did not open: %s", part, exc)
        return None


def sound_switch(app) -> Feedback | None:
    """The plugin whose tones the menu's Sound item turns on and off, if the table has a buzzer."""
    return next((p for p in app.plugins if isinstance(p, Feedback) and p.has_sound), None)


def toggle_sound(app) -> None:
    """The menus' Sound item: the buzzer's own setting, not the app's, so no action of the app."""
    switch = sound_switch(app)
    if switch is not None:
        switch.toggle_sound()
