"""A panel that comes back: absent at start, NACKing, unplugged and replugged.

The panel is the strict model in fakes/oled_bus.py under luma's own i2c class
(smbus2 replaced), and each test reads its GDDRAM back: what the player sees.
Time is the test's clock; `tend()` is what the device's loop calls each turn.
"""
from __future__ import annotations

import logging

import pytest
from PIL import Image, ImageDraw

from hardware.display import (
    PROBE_SECONDS,
    REFRESH_SECONDS,
    RETRY_SECONDS,
    SPI_REFRESH_SECONDS,
    PanelConfig,
    open_display,
)
from hardware.pages import pack_pages
from tests.hardware.fakes.oled_bus import Panel, RecordingSerial, SpiSerial

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

# A pair of command bytes only luma's init sequence sends (the SSD1306's charge pump on)
INIT_MARK = {"ssd1306": [0x8D, 0x14], "sh1106": [0xA1, 0xA6]}


def frame(*lines):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 12), fill="white")
    for row, line in enumerate(lines):
        draw.text((2, 1 + 13 * row), line, fill="black" if row == 0 else "white")
    return image


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class OpenedDisplay:
    """The display as the appliance opens it, on a strict panel, with what it reported."""

    def __init__(self, monkeypatch, controller="ssd1306", present=True):
        from tests.hardware.fakes.oled_bus import FakeSMBus
        self.panel = Panel(controller, present=present)
        self.wire = FakeSMBus(1, self.panel)
        monkeypatch.setattr("smbus2.SMBus", lambda port: self.wire)
        self.clock = Clock()
        self.said: list[tuple[bool, str]] = []
        self.display = open_display(PanelConfig(controller=controller), clock=self.clock,
                                    on_status=lambda ok, why: self.said.append((ok, why)))

    def later(self, seconds):
        self.clock.now += seconds
        self.display.tend()

    def sees(self, image):
        return self.panel.shown() == pack_pages(image)

    def inits(self):
        """How many times the init sequence went over the wire."""
        mark = INIT_MARK[self.panel.controller]
        return sum(command[i:i + 2] == mark for command in self.wire.commands()
                   for i in range(len(command)))


@pytest.fixture(params=["ssd1306", "sh1106"])
def controller(request):
    return request.param


def test_a_power_on_reset_panel_is_dark_and_holds_no_frame():
    panel = Panel("ssd1306")
    assert not panel.lit and panel.shown() == tuple(bytes(128) for _ in range(8))
    panel.on = panel.pump = True
    assert panel.shown() != tuple(bytes(128) for _ in range(8))    # RAM is not blank either


def test_a_panel_absent_at_start_is_initialised_and_drawn_when_it_answers(monkeypatch, controller,
                                                                          caplog):
    caplog.set_level(logging.WARNING, "hardware.display")
    table = OpenedDisplay(monkeypatch, controller, present=False)
    display = table.display
    assert not display.ok and "0x3C" in display.last_error
    display.show(frame("Palourde", "Ann flips"))
    table.later(RETRY_SECONDS)
    table.later(RETRY_SECONDS)
    assert table.said == [(False, display.last_error)] and len(caplog.records) == 1
    table.panel.plug()
    table.later(RETRY_SECONDS / 2)
    assert not table.panel.lit                     # not due yet
    table.later(RETRY_SECONDS / 2)
    assert display.ok and table.panel.lit and table.sees(frame("Palourde", "Ann flips"))
    assert table.said[-1] == (True, "") and len(table.said) == 2
    assert "working again" in caplog.records[-1].message


def test_an_unplugged_and_replugged_panel_shows_the_current_frame(monkeypatch, controller, caplog):
    caplog.set_level(logging.WARNING, "hardware.display")
    table = OpenedDisplay(monkeypatch, controller)
    display = table.display
    display.show(frame("Tamalou", "Bob's turn"))
    assert table.sees(frame("Tamalou", "Bob's turn")) and table.inits() == 1
    table.panel.unplug()
    table.later(PROBE_SECONDS)                     # an unchanged screen: only the probe tells
    assert not display.ok and table.said == [(False, display.last_error)]
    table.later(RETRY_SECONDS)
    table.later(RETRY_SECONDS)
    table.panel.plug()                             # back from its power-on reset: dark
    assert not table.panel.lit and len(caplog.records) == 1
    table.later(RETRY_SECONDS)
    assert display.ok and table.panel.lit and table.sees(frame("Tamalou", "Bob's turn"))
    assert table.inits() == 2 and table.said[-1] == (True, "")
    assert len(caplog.records) == 2


def test_a_frame_shown_while_the_panel_was_away_is_the_one_it_gets(monkeypatch):
    table = OpenedDisplay(monkeypatch)
    table.display.show(frame("Flouk", "Round 1"))
    table.panel.unplug()
    table.display.show(frame("Flouk", "Round 2"))  # its first byte NACKs
    table.display.show(frame("Flouk", "Round 3"))
    table.panel.plug()
    table.later(RETRY_SECONDS)
    assert table.sees(frame("Flouk", "Round 3"))


def test_a_nack_half_way_through_an_update_never_leaves_a_torn_frame(monkeypatch, controller):
    table = OpenedDisplay(monkeypatch, controller)
    table.display.show(frame("Auberge", "Cy accuses"))
    table.panel.glitch(after_bytes=40)             # the first page's span, then a NACK
    table.display.show(frame("L'Auberge", "Dee is out", "Cy wins"))
    torn = table.panel.shown()
    assert torn not in (pack_pages(frame("Auberge", "Cy accuses")),
                        pack_pages(frame("L'Auberge", "Dee is out", "Cy wins")))
    assert not table.display.ok
    table.display.tend()                           # the loop's next turn: at once, no wait
    assert table.display.ok and table.inits() == 2
    assert table.sees(frame("L'Auberge", "Dee is out", "Cy wins"))


def test_a_nack_at_every_byte_of_an_update_is_recovered(monkeypatch):
    """Wherever the NACK falls in a full update, the next one sends the whole frame."""
    before, after = frame("Palourde"), frame("Palourde", "Storm!")
    table = OpenedDisplay(monkeypatch)
    for where in range(0, 1100, 97):
        table.display.show(before)
        table.display.tend()
        table.panel.glitch(after_bytes=where)
        table.display.show(after)
        table.display.tend()
        assert table.display.ok and table.sees(after), where


def test_the_contrast_chosen_while_away_is_applied_on_return(monkeypatch):
    table = OpenedDisplay(monkeypatch)
    table.display.show(frame("Palourde"))
    table.panel.unplug()
    table.later(PROBE_SECONDS)
    table.display.dim()
    table.panel.plug()
    table.later(RETRY_SECONDS)
    assert table.panel.contrast == PanelConfig().dim_contrast


def test_a_working_quiet_panel_is_only_asked_with_a_nop(monkeypatch):
    table = OpenedDisplay(monkeypatch)
    table.display.show(frame("Palourde"))
    sent = len(table.wire.sent)
    table.later(PROBE_SECONDS / 2)
    assert len(table.wire.sent) == sent            # recent traffic: nothing to ask
    table.later(PROBE_SECONDS / 2)
    assert table.wire.sent[sent:] == [(0x00, [0xE3])]
    assert table.sees(frame("Palourde"))


def test_a_device_given_whole_is_built_again_on_its_bus():
    """OledDisplay(device) without an opener re-initialises through the device's own class."""
    from luma.oled.device import sh1106

    from hardware.display import OledDisplay
    bus = RecordingSerial("sh1106")
    display = OledDisplay(sh1106(bus), controller="sh1106")
    display.show(frame("Tamalou"))
    bus.panel.unplug()
    display.show(frame("Tamalou", "Ann: 12"))
    bus.panel.plug()
    display.show(frame("Tamalou", "Ann: 13"))      # retried at once after a first fault
    assert display.ok and bus.shown() == pack_pages(frame("Tamalou", "Ann: 13"))


def test_retries_build_no_device_so_no_exit_hook_blanks_the_panel(monkeypatch):
    """Each luma device registers an exit hook that clears the panel unless `persist` is set;
    a device built per failed retry would leave one each. The init is replayed instead."""
    import luma.core.device
    hooks = []
    monkeypatch.setattr(luma.core.device.atexit, "register", hooks.append)
    table = OpenedDisplay(monkeypatch, present=False)
    for _ in range(10):
        table.later(RETRY_SECONDS)
    table.panel.plug()
    table.later(RETRY_SECONDS)
    table.display.show(frame("Tamalou"))
    table.display.close(frame("Paused"))
    assert len(hooks) == 1 and table.display.ok
    hooks[0]()                                     # the process exits: the paused frame stays
    assert table.sees(frame("Paused"))


def test_a_panel_reset_without_a_nack_is_back_within_a_refresh(monkeypatch, controller):
    """A brown-out resets the panel while the bus is idle: it ACKs the probes, dark. Only
    the periodic refresh can bring it back; nothing was ever said, so nothing is said."""
    table = OpenedDisplay(monkeypatch, controller)
    table.display.show(frame("Palourde", "Storm warning"))
    table.panel.power_on_reset()
    table.later(PROBE_SECONDS)
    assert table.display.ok and not table.panel.lit
    table.later(REFRESH_SECONDS - PROBE_SECONDS)
    assert table.panel.lit and table.sees(frame("Palourde", "Storm warning"))
    assert table.said == []


def test_a_refresh_of_a_working_panel_shows_nothing_of_it(monkeypatch, controller):
    """After every transfer of the refresh the player sees the same: lit, the same frame,
    the same (dimmed) contrast: no display off, no clear, no flash of luma's contrast."""
    table = OpenedDisplay(monkeypatch, controller)
    table.display.show(frame("Flouk", "Decree 4"))
    table.display.dim()
    seen = []
    transfer = table.panel.transfer

    def watched(control, payload):
        transfer(control, payload)
        seen.append((table.panel.lit, table.panel.shown(), table.panel.contrast))
    monkeypatch.setattr(table.panel, "transfer", watched)
    table.later(REFRESH_SECONDS)
    assert len(seen) > 8                            # settings, contrast, 8 pages, display on
    assert set(seen) == {(True, pack_pages(frame("Flouk", "Decree 4")), PanelConfig().dim_contrast)}


def test_a_replugged_spi_panel_shows_the_current_frame_within_seconds(controller):
    """SPI has no ACK: an unplugged panel is never noticed, and it comes back from its
    power-on reset dark. The refresh on SPI is frequent enough to light it within seconds."""
    clock, wire = Clock(), SpiSerial(controller)
    display = open_display(PanelConfig(controller=controller, interface="spi"),
                           serial_interface=wire, clock=clock)
    display.show(frame("Tamalou", "Ann: draw"))
    wire.panel.unplug()
    clock.now += PROBE_SECONDS
    display.tend()
    display.show(frame("Tamalou", "Bob: draw"))
    wire.panel.plug()
    assert display.ok and not wire.panel.lit
    clock.now += SPI_REFRESH_SECONDS
    display.tend()
    assert wire.panel.lit and wire.panel.shown() == pack_pages(frame("Tamalou", "Bob: draw"))
    assert SPI_REFRESH_SECONDS <= 5 < REFRESH_SECONDS

