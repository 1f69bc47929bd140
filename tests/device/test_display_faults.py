"""The appliance's loop with a panel that is lost and comes back (the strict panel model).

The display is tended by the loop's own Frames each turn, on the table's virtual clock;
its lost and back reach the app as PartStatus inputs, as `run_appliance` wires them.
"""
from __future__ import annotations

import logging
import queue

import pytest
from luma.oled.device import ssd1306

from device.feedback import Feedback
from device.inputs import PartStatus
from device.loop import Frames
from device.ui.render import render
from hardware.display import PROBE_SECONDS, RETRY_SECONDS, OledDisplay
from hardware.pages import pack_pages
from tests.device.table import SimTable
from tests.hardware.fakes.oled_bus import RecordingSerial

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class Led:
    def __init__(self):
        self.shown = []

    def show(self, name):
        self.shown.append(name)

    def close(self):
        pass


def test_a_replugged_panel_shows_the_table_again_and_the_fault_is_told_once(tmp_path, caplog):
    caplog.set_level(logging.WARNING, "hardware.display")
    table = SimTable(tmp_path).start("palourde", "Ann,Bob")
    led = Led()
    table.app.attach(Feedback(None, led))
    app, clock, inputs = table.app, table.clock, queue.Queue()
    bus = RecordingSerial()
    display = OledDisplay(ssd1306(bus), clock=clock,
                          on_status=lambda ok, why: inputs.put(PartStatus("display", ok, why)))
    frames = Frames(display)

    def turn():                                   # one turn of run_forever, fed by its queue
        while not inputs.empty():
            app.handle(inputs.get_nowait())
        app.tick()
        frames.update(app)

    turn()
    playing = app.screen()
    assert bus.shown() == pack_pages(render(playing))
    bus.panel.unplug()
    for _ in range(5):
        clock.advance(PROBE_SECONDS)
        turn()
    assert "display" in app.faults and led.shown.count("error") == 1
    bus.panel.plug()                              # dark after its power-on reset
    clock.advance(RETRY_SECONDS)
    turn()
    turn()                                        # the app hears it is back
    assert "display" not in app.faults and led.shown[-1] == "ready"
    assert bus.panel.lit and bus.shown() == pack_pages(render(app.screen()))
    assert app.screen() == playing
    lost, back = (record.message for record in caplog.records)   # one line each
    assert "Remote I/O error" in lost and "working again" in back
