"""The OLED update path on the real luma.oled drivers over recording buses."""
from __future__ import annotations

import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hardware.display import OledDisplay, PanelConfig, open_display
from hardware.errors import DisplayError
from hardware.pages import FULL_FRAME_BYTES, pack_pages
from tests.hardware.fakes.oled_bus import FakeSMBus, RecordingSerial

# luma.oled 3.16 still calls Image.getdata in its own display(); Pillow 13 warns.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

FULL_UPDATE = 2 + 8 * (3 + 128)           # addressing mode, then 8 x (page command + page)


def blank():
    return Image.new("1", (128, 64))


def with_pixel(image, x, y):
    image = image.copy()
    image.putpixel((x, y), 255)
    return image


def text_frame(*lines):
    image = blank()
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 12), fill="white")
    for row, line in enumerate(lines):
        draw.text((2, 1 + 13 * row), line, fill="black" if row == 0 else "white")
    return image


@pytest.fixture
def bus():
    return RecordingSerial()


def opened(bus, controller="ssd1306"):
    device = {"ssd1306": ssd1306, "sh1106": sh1106}[controller](bus)
    bus.forget()                                   # luma's init sequence
    return OledDisplay(device, controller=controller)


def test_the_first_update_is_a_full_frame_in_page_addressing(bus):
    display = opened(bus)
    display.show(with_pixel(blank(), 0, 0))
    assert bus.commands[0] == (0x20, 0x02)
    assert bus.commands[1:] == [(0xB0 | page, 0x00, 0x10) for page in range(8)]
    assert [len(block) for block in bus.blocks] == [128] * 8
    assert display.bytes_sent == FULL_UPDATE


def test_a_partial_update_sends_exactly_the_changed_bytes(bus):
    display = opened(bus)
    display.show(blank())
    bus.forget()
    display.show(with_pixel(blank(), 10, 20))     # row 20: page 2, bit 4
    assert bus.commands == [(0xB2, 0x0A, 0x10)]
    assert bus.blocks == [[0x10]]
    assert display.bytes_sent == 4


def test_a_changed_span_inside_a_page_starts_at_its_first_column(bus):
    display = opened(bus)
    display.show(blank())
    bus.forget()
    display.show(with_pixel(with_pixel(blank(), 40, 63), 42, 56))
    assert bus.commands == [(0xB7, 0x08, 0x12)]   # column 40 = 0x28
    assert bus.blocks == [[0x80, 0, 0x01]]        # a gap of 1 costs no more than a new span


def test_a_second_span_in_a_page_sends_only_the_column_nibbles_that_move(bus):
    display = opened(bus)
    display.show(blank())
    bus.forget()
    display.show(with_pixel(with_pixel(blank(), 40, 63), 43, 56))
    # the page is set once; column 43 = 0x2B shares its higher nibble with the 0x28 sent and
    # with the pointer the data left at 0x29: the lower nibble alone moves it
    assert bus.commands == [(0xB7, 0x08, 0x12), (0x0B,)]
    assert bus.blocks == [[0x80], [0x01]]
    assert display.bytes_sent == 6
    assert bus.shown() == pack_pages(with_pixel(with_pixel(blank(), 40, 63), 43, 56))


def test_changes_far_apart_in_a_page_go_as_separate_spans(bus):
    display = opened(bus)
    display.show(blank())
    bus.forget()
    display.show(with_pixel(with_pixel(blank(), 40, 63), 77, 56))
    assert bus.commands == [(0xB7, 0x08, 0x12), (0x0D, 0x14)]   # columns 40 and 77
    assert bus.blocks == [[0x80], [0x01]]
    assert display.bytes_sent == 7                # not 3 + 38 for one span over the gap


def test_the_higher_nibble_is_sent_again_once_the_data_moved_the_pointer_past_it(bus):
    """Column 47's byte leaves the pointer at 48 (0x30) while the nibble last sent was 2: the
    datasheets leave open which a lower-nibble command keeps, so column 50 sends both."""
    display = opened(bus)
    display.show(blank())
    bus.forget()
    frame = with_pixel(with_pixel(blank(), 47, 63), 50, 56)
    display.show(frame)
    assert bus.commands == [(0xB7, 0x0F, 0x12), (0x02, 0x13)]
    assert bus.shown() == pack_pages(frame)


def test_each_update_addresses_its_first_span_whole(bus):
    display = opened(bus)
    display.show(blank())
    display.show(with_pixel(blank(), 40, 63))
    bus.forget()
    display.show(with_pixel(with_pixel(blank(), 40, 63), 43, 63))
    assert bus.commands == [(0xB7, 0x0B, 0x12)]   # what an earlier update set is not relied on


def test_a_gap_of_exactly_a_span_cost_is_sent_through():
    from hardware.pages import SPAN_COST, changed_spans
    before = bytes(128)
    after = bytearray(128)
    after[10] = after[10 + SPAN_COST + 1] = 1
    assert changed_spans(before, bytes(after)) == [(10, 10 + SPAN_COST + 1)]
    after[10 + SPAN_COST + 1], after[10 + SPAN_COST + 2] = 0, 1
    assert changed_spans(before, bytes(after)) == [(10, 10), (10 + SPAN_COST + 2,) * 2]


def test_an_unchanged_frame_sends_nothing(bus):
    display = opened(bus)
    display.show(text_frame("Palourde", "Ann: 4"))
    bus.forget()
    display.show(text_frame("Palourde", "Ann: 4"))
    assert bus.commands == [] and display.bytes_sent == 0


def test_a_line_of_text_costs_a_fraction_of_a_frame(bus):
    display = opened(bus)
    display.show(text_frame("Palourde  Ann", "Flip a card", "Ann: 4  Bob: 2"))
    bus.forget()
    display.show(text_frame("Palourde  Ann", "Flip a card", "Ann: 5  Bob: 2"))
    assert {command[0] for command in bus.commands} <= {0xB3, 0xB4}
    assert display.bytes_sent < FULL_FRAME_BYTES / 10


def test_sh1106_writes_into_the_middle_of_its_132_columns():
    bus = RecordingSerial("sh1106")
    display = opened(bus, "sh1106")
    display.show(blank())
    assert (0x20, 0x02) not in bus.commands       # the SH1106 only knows page addressing
    bus.forget()
    display.show(with_pixel(blank(), 0, 8))
    assert bus.commands == [(0xB1, 0x02, 0x10)] and bus.blocks == [[0x01]]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63)), max_size=12),
                min_size=1, max_size=6),
       st.sampled_from(["ssd1306", "sh1106"]))
def test_the_panel_always_ends_up_showing_the_last_frame(frames, controller):
    bus = RecordingSerial(controller)
    display = opened(bus, controller)
    image = blank()
    for pixels in frames:
        for x, y in pixels:
            image.putpixel((x, y), 255 - image.getpixel((x, y)))
        display.show(image)
        assert bus.shown() == pack_pages(image)


def test_an_io_error_is_survived_reported_and_followed_by_a_full_frame(bus):
    display = opened(bus)
    display.show(blank())
    bus.panel.glitch(after_bytes=20)               # the second page's data NACKs half-way
    display.show(text_frame("Tamalou"))
    assert not display.ok and display.errors == 1 and "Remote I/O" in display.last_error
    bus.forget()
    display.show(text_frame("Tamalou"))            # retried at once: init again, whole frame
    assert display.ok and display.bytes_sent == FULL_UPDATE
    assert (0x8D, 0x14) in [command[i:i + 2] for command in bus.commands for i in range(len(command))]
    assert bus.shown() == pack_pages(text_frame("Tamalou"))


def test_contrast_and_dim(bus):
    display = OledDisplay(ssd1306(bus), contrast=0xCF, dim_contrast=0x08)
    bus.forget()
    display.dim()
    display.dim(False)
    display.contrast(0x40)
    assert bus.commands == [(0x81, 0x08), (0x81, 0xCF), (0x81, 0x40)]
    with pytest.raises(ValueError):
        display.contrast(300)


def test_close_leaves_the_paused_frame_on(bus):
    display = opened(bus)
    display.show(blank())
    display.close(text_frame("Paused"))
    assert (0xAE,) not in bus.commands and bus.cleaned_up
    assert bus.shown() == pack_pages(text_frame("Paused"))


def test_close_without_a_paused_frame_switches_the_panel_off(bus):
    display = opened(bus)
    display.close()
    assert bus.commands[-1] == (0xAE,) and bus.cleaned_up


def test_a_wrong_image_is_refused(bus):
    display = opened(bus)
    with pytest.raises(ValueError, match='mode "1" 128x64'):
        display.show(Image.new("L", (128, 64)))


@pytest.fixture
def smbus(monkeypatch):
    made = []

    def make(port):
        made.append(FakeSMBus(port))
        return made[-1]
    monkeypatch.setattr("smbus2.SMBus", make)
    return made


def test_i2c_wire_bytes_partial_against_full_frame(smbus):
    display = open_display(PanelConfig(controller="ssd1306", i2c_port=1))
    wire = smbus[0]
    display.show(text_frame("Flouk  P2", "Decree 3?", "mouta 4"))
    full = wire.wire_bytes
    display.show(text_frame("Flouk  P2", "Decree 3?", "mouta 5"))
    partial = wire.wire_bytes - full
    assert partial < full / 10
    wire.panel.unplug()                     # luma turns the NACK into DeviceNotFoundError: survived
    display.show(text_frame("Flouk  P3"))
    assert not display.ok and "0x3C" in display.last_error
    display.close()
    assert wire.closed


def test_open_display_explains_a_missing_i2c_bus():
    with pytest.raises(DisplayError, match="dtparam=i2c_arm=on"):
        open_display(PanelConfig(i2c_port=99))


class FakeSpiDev:
    def __init__(self):
        self.written, self.closed = [], False

    def open(self, port, device):
        self.port = (port, device)

    def writebytes(self, data):
        self.written.append(list(data))

    def close(self):
        self.closed = True


def test_spi_display_drives_dc_and_reset_through_gpiozero(monkeypatch, mock_factory):
    spi = FakeSpiDev()
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: spi))
    monkeypatch.setitem(sys.modules, "RPi", None)          # RPi.GPIO must never be needed
    display = open_display(PanelConfig(controller="sh1106", interface="spi", dc_pin=24,
                                         reset_pin=25, contrast=0x30))
    dc, reset = mock_factory.pin(24), mock_factory.pin(25)
    assert [state for _, state in reset.states][-2:] == [False, True]   # reset pulse
    display.show(blank())
    display.show(with_pixel(blank(), 5, 5))
    assert spi.written[-2:] == [[0xB0, 0x07, 0x10], [0x20]]   # column 5 + the SH1106's 2
    assert dc.state == 1                                        # DC high: data
    display.close()
    assert spi.closed
