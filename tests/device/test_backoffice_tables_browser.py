"""The tables as a staffer sees them in headless Chromium: each table's OLED drawn pixel for pixel
at four times its size, its version as text (markup stays letters), and per game the tables
without its deck. Nothing waits on a clock: the page marks each full load on its body."""
from __future__ import annotations

import base64

import pytest

from device.fleet.screen_feed import PACKED_BYTES
from device.fleet.topics import encode, table_topic
from tests.device.backoffice_client import serve, sign_in
from tests.device.test_fleet_dashboard import CLOCK

VERSION = "<b id=hacked>1</b>"


def pattern() -> bytes:
    """A frame whose lit pixels say where they are: the top-left one, a row's last, a column."""
    bits = bytearray(PACKED_BYTES)
    bits[0] |= 0x80                                      # (0, 0)
    bits[15] |= 0x01                                     # (127, 0)
    for y in range(64):
        bits[y * 16 + 5] |= 0x20                         # x = 42
    return bytes(bits)


@pytest.fixture
def office(tmp_path):
    server, _, _ = serve(tmp_path)
    server.board.receive(table_topic("t1", "state"), encode({
        "table": "t1", "at": CLOCK, "activity": "idle", "game": None, "faults": {},
        "version": VERSION, "screen": base64.b64encode(pattern()).decode(),
        "decks": [{"name": "house", "family": "palourde", "complete": True}]}))
    yield server
    server.close()


def test_a_tables_screen_is_drawn_pixel_for_pixel_and_its_version_as_text(browser, office):
    page = browser.new_page()
    try:
        sign_in(page, office.url)
        row = page.locator("#tables li[data-table='t1']")
        assert row.locator(".version").text_content() == VERSION
        assert page.locator("#hacked").count() == 0
        lit = page.evaluate("""() => {
            const canvas = document.querySelector("#tables li[data-table='t1'] canvas.oled");
            const data = canvas.getContext("2d").getImageData(0, 0, 128, 64).data;
            const lit = [];
            for (let n = 0; n < 128 * 64; n++) { if (data[n * 4]) { lit.push([n % 128, n >> 7]); } }
            const box = canvas.getBoundingClientRect();
            return {lit, size: [box.width, box.height],
                    rendering: getComputedStyle(canvas).imageRendering};
        }""")
        assert sorted(map(tuple, lit["lit"])) == sorted({(0, 0), (127, 0), *((42, y) for y in range(64))})
        assert lit["size"] == [256, 128] and lit["rendering"] == "pixelated"
        lacking = page.locator("#lacking li[data-game='auberge'] .tables").text_content()
        assert lacking == "t1" and page.locator("#lacking li[data-game='palourde']").count() == 0
    finally:
        page.close()
