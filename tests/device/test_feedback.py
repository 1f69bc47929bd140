"""The feedback plugin: the tone and colour each input earns, quiet hours, the menu's Sound
item, the simulator's printed lines, and a loop that never waits for a tune."""
from __future__ import annotations

import datetime
import io
import sys
import textwrap
import threading
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import engine
from device.app import Companion
from device.cli import main
from device.config import Config, parse_config
from device.decks.simulated import SimDecks
from device.feedback import Feedback, Moment, open_feedback, tone_for
from device.inputs import ButtonHeld, ButtonPressed, ReaderBack, ReaderOffline, Removed, Tapped
from device.plugin import Answered, Reading
from device.sim.clock import VirtualClock
from device.storage.store import GameStore
from engine import Accepted, Info, Rejected, Session, Tally, make_config, msg
from engine.core.outcomes import Result
from hardware.feedback import PrintedLed, PrintedTones, StatusLed, Tones


class Recorder:
    """Stands in for the buzzer and the LED: what was asked of it, in order."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def play(self, name: str) -> None:
        self.asked.append(name)

    show = play

    def close(self) -> None:
        self.asked.append("closed")


class Spec:
    """A game reduced to what feedback reads: a state is a dict of the tally's fields."""

    @staticmethod
    def tally(state: dict) -> Tally:
        return Tally((), current=state.get("current"), round=state.get("round"))

    @staticmethod
    def result(state: dict):
        return Result(("Ann",), msg("core.game_over")) if state.get("over") else None


def table(state: dict, known: bool = True) -> SimpleNamespace:
    reading = Reading(Spec)
    return SimpleNamespace(session=SimpleNamespace(spec=Spec, state=state), reading=lambda: reading,
                           registry=SimpleNamespace(lookup=lambda uid: object() if known else None),
                           mode=SimpleNamespace(knows=lambda uid: uid == PLAYER_CARD))


PLAYER_CARD = "04C0FFEE"           # a player's card, which the setup's seats take


def accept(plugin: Feedback, app, **details) -> None:
    """One input the engine takes, moving the game to a state with these details."""
    plugin.on_input(app, ButtonPressed("SELECT"))
    before, app.session.state = app.session.state, dict(details)
    plugin.on_outcome(app, Answered("event", None, Accepted(app.session.state), before,
                                   app.session.state))


def answered(answer) -> Answered:
    """An input the engine refused or only answered: the state stays."""
    return Answered("event", None, answer, None, None)


def placed(app, uid: str) -> Tapped:
    """A tag on the reader, as the app hands it on: looked up in the table's decks."""
    return Tapped(uid, app.registry.lookup(uid))


def plugin_on(state: dict, **kwargs) -> tuple[Feedback, Recorder, Recorder, SimpleNamespace]:
    tones, led = Recorder(), Recorder()
    return Feedback(tones, led, **kwargs), tones, led, table(state)


@pytest.mark.parametrize("before, after, tone", [
    (Moment("Ann", 1, False), Moment("Ann", 1, False), "accepted"),
    (Moment("Ann", 1, False), Moment("Bob", 1, False), "turn"),
    (Moment("Ann", 1, False), Moment("Bob", 2, False), "round_end"),
    (Moment("Ann", 2, False), Moment("Bob", 3, True), "game_end"),
    (Moment(None, 0, False), Moment("Ann", 1, False), "turn"),      # Flouk's first deal
    (Moment("Bob", None, False), Moment(None, None, False), "accepted"),
    (Moment("Bob", 2, False), Moment("Ann", 1, False), "turn"),     # an undo across rounds
])
def test_the_biggest_moment_wins(before, after, tone):
    assert tone_for(before, after) == tone


def test_each_answer_of_the_engine_sounds():
    plugin, tones, _, app = plugin_on({"current": "Ann", "round": 1})
    accept(plugin, app, current="Ann", round=1)
    accept(plugin, app, current="Bob", round=1)
    plugin.on_outcome(app, answered(Rejected("E_SAME_CARD", msg("core.game_over"))))
    plugin.on_outcome(app, answered(Info(msg("core.game_over"))))
    accept(plugin, app, current="Ann", round=2)
    accept(plugin, app, current="Ann", round=2, over=True)
    assert tones.asked == ["accepted", "turn", "rejected", "accepted", "round_end", "game_end"]


def test_a_tag_no_deck_knows_is_refused_with_a_tone():
    plugin, tones, _, app = plugin_on({"current": "Ann"})
    app.registry.lookup = lambda uid: None
    plugin.on_input(app, placed(app, "DEADBEEF"))
    assert tones.asked == ["rejected"]


def test_a_player_card_the_screen_takes_is_no_refusal():
    plugin, tones, _, app = plugin_on({"current": "Ann"})
    app.registry.lookup = lambda uid: None
    plugin.on_input(app, placed(app, PLAYER_CARD))
    assert "rejected" not in tones.asked


def test_the_led_tells_reader_card_and_turn():
    plugin, _, led, app = plugin_on({"current": "Ann"})
    plugin.on_input(app, placed(app, "04A1B2C3"))
    accept(plugin, app, current="Bob")               # the turn passes while the card lies there
    plugin.on_outcome(app, answered(Rejected("E_X", msg("core.game_over"))))
    plugin.on_input(app, Removed("04A1B2C3"))
    plugin.on_input(app, placed(app, "04A1B2C3"))
    plugin.on_input(app, Removed("04A1B2C3"))        # a refused tap keeps Bob's colour
    accept(plugin, app, current="Bob")               # Bob's input is taken: the turn goes on
    plugin.on_input(app, ReaderOffline("no answer"))
    plugin.on_input(app, placed(app, "04A1B2C3"))
    plugin.on_input(app, ReaderBack())
    assert led.asked == ["ready", "card_seen", "your_turn", "card_seen", "your_turn", "ready",
                         "error", "ready"]


def test_quiet_hours_mute_the_tones_not_the_led():
    now = [datetime.time(23, 30)]
    quiet = parse_config('[feedback]\nquiet_hours = "22:00-09:00"').feedback.quiet_hours
    plugin, tones, led, app = plugin_on({"current": "Ann"}, quiet_hours=quiet,
                                        local_time=lambda: now[0])
    accept(plugin, app, current="Bob")
    now[0] = datetime.time(9, 0)
    accept(plugin, app, current="Ann")
    assert tones.asked == ["turn"]
    assert led.asked == ["ready", "your_turn"]


def test_the_loop_does_not_wait_for_the_tune():
    started, release = threading.Event(), threading.Event()

    def held_wait(seconds: float) -> bool:
        started.set()
        release.wait(5)
        return False

    factory = MockFactory(pin_class=MockPWMPin)
    tones = Tones(12, pin_factory=factory, wait=held_wait)
    plugin = Feedback(tones)
    plugin.on_outcome(table({}), answered(Rejected("E_X", msg("core.game_over"))))
    assert started.wait(5)                  # the tune is under way on its own thread...
    assert not release.is_set() and factory.pin(12).frequency == 220.0   # ...and still sounds
    release.set()
    plugin.close()
    factory.close()
    factory.reset()


# ---- from the config --------------------------------------------------------------------

def config(text: str) -> Config:
    return parse_config(textwrap.dedent(text))


def test_without_a_buzzer_or_led_there_is_no_plugin():
    assert open_feedback(Config(), sim=False) is None


def test_the_parts_open_from_the_config():
    factory = MockFactory(pin_class=MockPWMPin)
    plugin = open_feedback(config("""
        [feedback]
        buzzer_pin = 12
        led_red = 17
        led_green = 27
        led_blue = 22
        volume = 80
        quiet_hours = "22:00-09:00"
    """), sim=False, pin_factory=factory)
    assert isinstance(plugin.tones, Tones) and plugin.tones.volume == 80
    assert isinstance(plugin.led, StatusLed)
    assert plugin.quiet_hours is None                # quiet hours are for kiosk mode
    plugin.close()
    factory.close()
    factory.reset()


def test_volume_zero_leaves_the_buzzer_off_and_half_an_led_is_left_off(caplog):
    assert open_feedback(config("[feedback]\nbuzzer_pin = 12\nvolume = 0\nled_red = 17"),
                         sim=False) is None
    assert "needs led_red, led_green and led_blue" in caplog.text


def test_the_simulator_prints_them_with_kiosk_quiet_hours():
    out = io.StringIO()
    plugin = open_feedback(config("""
        [kiosk]
        enabled = true
        [feedback]
        quiet_hours = "22:00-09:00"
    """), sim=True, out=out)
    assert isinstance(plugin.tones, PrintedTones) and isinstance(plugin.led, PrintedLed)
    assert str(plugin.quiet_hours) == "22:00-09:00"
    assert out.getvalue() == "LED green: ready\n"


# ---- the menu's Sound item and the simulator ----------------------------------------------

def companion(tmp_path, *plugins) -> Companion:
    clock = VirtualClock(wall="2026-01-01T20:00:00+00:00")
    app = Companion(registry=SimDecks(), store=GameStore(tmp_path, clock=clock), clock=clock)
    app.attach(*plugins)
    spec = engine.get("auberge")
    app.start_game(Session(spec, make_config(spec, ["Ann", "Bob", "Cy"])), None)
    return app


def test_the_menu_turns_the_sound_off_and_on(tmp_path):
    plugin = Feedback(Recorder())
    app = companion(tmp_path, plugin)
    app.handle(ButtonHeld("SELECT"))
    assert "Sound: on" in app.screen().lines
    for _ in range(3):
        app.handle(ButtonPressed("DOWN"))
    app.handle(ButtonPressed("SELECT"))
    assert not plugin.sound_on and "Sound: off" in app.screen().lines
    app.handle(ButtonPressed("SELECT"))
    assert plugin.sound_on and "Sound: on" in app.screen().lines


def test_without_a_buzzer_the_menu_has_no_sound_item(tmp_path):
    app = companion(tmp_path, Feedback(None, Recorder()))
    app.handle(ButtonHeld("SELECT"))
    assert not any(line.startswith("Sound") for line in app.screen().lines)


def test_the_simulator_prints_each_tone_under_the_frames(tmp_path, monkeypatch, capsys):
    script = """\
        tap clam#1
        wait 2
        tap clam#2
        wait 2
        tap uid:DEADBEEF
        wait 2
        hold select
        press down
        press down
        press down
        press select
        press back
        tap clam#3
    """
    monkeypatch.setattr(sys, "stdin", io.StringIO(textwrap.dedent(script)))
    assert main(["run", "--sim", "--state-dir", str(tmp_path), "--game", "palourde",
                 "--players", "Ann,Bob"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if line.startswith("\u266a")] == [
        "\u266a accepted", "\u266a turn", "\u266a rejected"]    # then the Sound item mutes clam#3
    # the page's thread logs its address when it is up, at no fixed place among the LED's lines
    assert [line for line in lines if line.startswith("LED ")][-2:] == [
        "LED blue: card seen", "LED green: ready"]


def test_the_card_colour_stays_while_any_card_rests_on_the_reader():
    plugin, _, led, app = plugin_on({"current": "Ann"})
    plugin.on_input(app, placed(app, "04A1B2C3"))
    plugin.on_input(app, placed(app, "04112233445566"))   # laid next to the first
    plugin.on_input(app, Removed("04112233445566"))
    assert led.asked[-1] == "card_seen"
    plugin.on_input(app, Removed("04A1B2C3"))
    assert led.asked[-1] == "ready"


def test_a_lost_display_turns_the_led_to_error_once_until_it_is_back():
    plugin, tones, led, app = plugin_on({"current": "Ann"})
    app.faults = {}
    plugin.after_input(app)
    app.faults["display"] = msg("ui.display_offline")
    plugin.tick(app)
    plugin.tick(app)
    plugin.after_input(app)
    del app.faults["display"]
    plugin.tick(app)
    assert led.asked == ["ready", "error", "ready"] and tones.asked == []
