"""A button held so long it stopped repeating shows on the status LED until it is released."""
from __future__ import annotations

from device.feedback import Feedback
from hardware.events import ButtonStuck, ReaderBack, ReaderOffline
from hardware.feedback import COLOURS, PrintedLed


class Led:
    def __init__(self):
        self.shown = []

    def show(self, name):
        assert name in COLOURS
        self.shown.append(name)


def test_a_stuck_button_turns_the_led_magenta_until_released():
    led = Led()
    feedback = Feedback(led=led)
    feedback.on_input(None, ButtonStuck("UP"))
    feedback.on_input(None, ButtonStuck("DOWN"))
    feedback.on_input(None, ButtonStuck("UP", stuck=False))
    assert led.shown == ["ready", "button_stuck"]           # DOWN is still stuck
    feedback.on_input(None, ButtonStuck("DOWN", stuck=False))
    assert led.shown == ["ready", "button_stuck", "ready"]


def test_a_reader_fault_outranks_a_stuck_button():
    led = Led()
    feedback = Feedback(led=led)
    feedback.on_input(None, ButtonStuck("UP"))
    feedback.on_input(None, ReaderOffline("gone"))
    feedback.on_input(None, ReaderBack())
    assert led.shown == ["ready", "button_stuck", "error", "button_stuck"]


def test_the_simulators_led_names_it(capsys):
    PrintedLed().show("button_stuck")
    assert capsys.readouterr().out == "LED magenta: button stuck\n"
