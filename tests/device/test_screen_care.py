"""OLED care through simulator lines and virtual time: dim, a drifting screensaver, night, wake."""
from __future__ import annotations

from device.config import KioskConfig, TimeWindow
from device.kiosk.screen_care import ScreenCare, bounce
from device.ui.render import render

from .table import SimTable


def cared(tmp_path, **settings) -> SimTable:
    table = SimTable(tmp_path)
    table.app.attach(ScreenCare(KioskConfig(**settings)))
    return table


def lit_rows(image) -> set[int]:
    return {y for y in range(image.size[1]) if any(image.getpixel((x, y)) for x in range(image.size[0]))}


def test_an_idle_screen_dims_and_an_input_there_still_counts(tmp_path):
    table = cared(tmp_path, dim_after_s=60, screensaver_after_s=300)
    table.run("wait 59")
    assert table.app.display_level == "normal"
    table.run("wait 1")
    assert table.app.display_level == "dim"
    assert table.screen.header == "TABLETOP"            # still readable
    table.run("press down")
    assert table.app.display_level == "normal"
    assert table.screen.highlight == 1                  # the press moved the menu


def test_the_screensaver_drifts_each_minute_and_the_first_press_only_wakes(tmp_path):
    table = cared(tmp_path, dim_after_s=60, screensaver_after_s=300)
    table.run("wait 300")
    saver = table.screen
    assert saver.drift is not None and saver.lines == ("TABLETOP",)
    assert table.app.display_level == "dim"
    image = render(saver)
    assert 0 not in lit_rows(image)                      # no header bar left burning
    table.run("wait 60")
    assert table.screen.drift != saver.drift
    # menu, the menu's clock a minute on as it dims (60 s), saver, saver moved
    assert table.frames.count == 4
    table.run("press down")
    assert table.screen.header == "TABLETOP" and table.screen.highlight == 0
    assert table.app.display_level == "normal"
    table.run("press down")
    assert table.screen.highlight == 1


def test_a_card_tapped_on_the_screensaver_only_wakes(tmp_path):
    table = cared(tmp_path, dim_after_s=0, screensaver_after_s=120)
    table.run("wait 120\ntap clam#1")
    assert table.screen.lines[-1] == "Tap a card to start"
    table.run("wait 2\ntap clam#2")
    assert "palourde" in table.text.lower()              # now the tap offers its game


def test_night_hours_blank_an_idle_screen(tmp_path):
    table = cared(tmp_path, dim_after_s=60, screensaver_after_s=300,
                  night_blank=TimeWindow(23 * 60, 8 * 60))
    table.run("wait 120")
    assert table.app.display_level == "dim"              # 12:40 is not night
    table.clock.set_wall("2024-05-04T23:30:00+02:00")
    table.run("wait 1")
    assert table.screen.blank and table.app.display_level == "off"
    assert not lit_rows(render(table.screen))
    table.run("press select")
    assert table.screen.header == "TABLETOP" and table.app.display_level == "normal"
    table.run("wait 60")
    assert table.screen.blank


def test_a_time_of_zero_turns_a_step_off(tmp_path):
    table = cared(tmp_path, dim_after_s=0, screensaver_after_s=0)
    table.run("wait 86400")
    assert table.app.display_level == "normal" and table.screen.drift is None


def test_the_next_timer_is_the_next_step(tmp_path):
    table = cared(tmp_path, dim_after_s=60, screensaver_after_s=300)
    assert table.app.next_deadline() == 60
    table.run("wait 100")
    assert table.app.next_deadline() == 300
    table.run("wait 250")
    assert table.app.next_deadline() == 360              # the first drift


def test_the_drift_bounces_inside_the_panel():
    assert [bounce(d, 4) for d in range(10)] == [0, 1, 2, 3, 4, 3, 2, 1, 0, 1]
    assert bounce(7, 0) == 0
