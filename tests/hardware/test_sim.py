"""The simulated twins: reader, buttons, PNG frames, a frame drawn as text."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from hardware.errors import ReaderError
from hardware.events import ButtonHeld, ButtonPressed
from hardware.sim import SimButtons, SimReader
from hardware.sim_display import FrameDisplay, braille, halfblocks, quadrants


def test_sim_reader_field():
    reader = SimReader()
    assert reader.poll() is None
    reader.place("04a22b91")
    assert reader.poll() == "04A22B91"
    reader.lift()
    assert reader.poll() is None
    reader.unplugged = True
    with pytest.raises(ReaderError):
        reader.poll()


@pytest.mark.parametrize("uid", ["04A22B", "zz112233", "04 A2 2B 91 00"])
def test_sim_reader_refuses_what_is_not_a_uid(uid):
    with pytest.raises(ValueError, match="4, 7 or 10 bytes"):
        SimReader().place(uid)


def test_sim_buttons_emit_the_hardware_events():
    events = []
    buttons = SimButtons(events.append)
    buttons.press("up")
    buttons.hold("BACK")
    assert events == [ButtonPressed("UP"), ButtonHeld("BACK")]
    with pytest.raises(ValueError, match="no button"):
        buttons.press("left")


def frame(text):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((4, 4), text, fill="white")
    return image


def test_frame_display_keeps_the_last_frame_and_writes_new_ones(tmp_path):
    display = FrameDisplay(tmp_path / "frames")
    display.show(frame("one"))
    display.show(frame("one"))
    display.show(frame("two"))
    display.close(frame("paused"))
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == [
        "frame_00001.png", "frame_00002.png", "frame_00003.png"]
    assert display.frame.tobytes() == frame("paused").tobytes()
    assert Image.open(tmp_path / "frames" / "frame_00002.png").convert("1").tobytes() == frame("two").tobytes()


def test_halfblocks_draws_two_rows_per_line():
    image = Image.new("1", (4, 4))
    for xy in [(0, 0), (1, 1), (2, 0), (2, 1)]:
        image.putpixel(xy, 255)
    assert halfblocks(image) == "\u2580\u2584\u2588 \n    "


def test_braille_and_quadrants_keep_every_pixel():
    image = Image.new("1", (4, 4))
    for xy in [(0, 0), (1, 1), (3, 3)]:
        image.putpixel(xy, 255)
    assert quadrants(image) == "\u259a \n \u2597"        # top left and bottom right; then one
    assert braille(image) == chr(0x2800 + 0x01 + 0x10) + chr(0x2800 + 0x80)
