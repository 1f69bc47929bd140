"""The join card on the OLED's frames, at the game select and through every setup step of
every game: the QR code of the page's address with the join code in the header bar where the
screen's top lines leave it room, else the address and the code in the header bar; and never
a pixel of the screen's text covered (the header's right side, the time of day, gives way)."""
from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from device.players.roster import Roster, new_player
from device.ui.font import WIDTH, draw_text
from device.ui.game_select import GameSelect
from device.ui.playing import Playing
from device.ui.render import HEADER_HEIGHT, render
from device.ui.wizard import Instruction
from device.web.card import SMALL_TOP, address_of, draw_small, small_width
from engine.core.registry import built_in
from tests.device.table import to_game
from tests.device.test_web_server import read_qr
from tests.device.webpage import serve


def lit(image: Image.Image, box) -> set[tuple[int, int]]:
    return pixels(image, box, lit=True)


def dark_in_bar(image: Image.Image, right: int) -> set[tuple[int, int]]:
    return pixels(image, (0, 0, right, HEADER_HEIGHT), lit=False)


def pixels(image: Image.Image, box, lit: bool) -> set[tuple[int, int]]:
    """The (x, y) in `box`, from its corner, of the pixels lit (or dark), read row by row."""
    part = image.convert("1").crop(box)
    return {(n % part.width, n // part.width)                  # a byte a pixel: 0 or 255
            for n, value in enumerate(part.convert("L").tobytes()) if bool(value) == lit}


def check_frame(table, web) -> str:
    """What the card on the frame now is ("qr" or "address"), having checked that it covers
    no text of the screen's."""
    screen = table.app.screen()
    plain, shown = render(screen), web.desk.latest.image
    body = (0, HEADER_HEIGHT, plain.width, plain.height)
    assert lit(plain, body) <= lit(shown, body), table.text          # no body text covered
    code = web.desk.joining.code
    found = read_qr(shown)
    if found:
        assert found == [f"{web.url}#code={code}"]
        kept = dark_in_bar(plain, 1 + len(screen.header) * WIDTH)
        assert kept <= dark_in_bar(shown, plain.width), table.text    # the header's name whole
        return "qr"
    expected = Image.new("1", plain.size, 1)                          # the bar as the card draws it
    code_x = plain.width - 1 - len(code) * WIDTH
    draw_text(expected, code_x, 0, code, fill=0)
    address = address_of(web.url)
    width = small_width(address)
    assert width is not None
    draw_small(expected, code_x - 4 - width, SMALL_TOP, address)
    bar = (code_x - 4 - width, 0, plain.width, HEADER_HEIGHT)
    assert ImageChops.difference(expected.crop(bar), shown.convert("1").crop(bar)).getbbox() is None
    return "address"


@pytest.fixture
def page(tmp_path):
    for name in ("Maximilian", "Ann", "Cy"):
        Roster(tmp_path).add(new_player(name))
    table, web = serve(tmp_path)
    yield table, web
    web.close()


def test_the_game_select_shows_the_qr_code_and_every_line_whole(page):
    table, web = page
    seen = []
    for _ in range(len(built_in()) + 1):                # every line, down and back up
        seen.append(check_frame(table, web))
        table.run("press down")
    for _ in range(len(built_in()) + 1):
        table.run("press up")
        seen.append(check_frame(table, web))
    assert isinstance(table.app.mode, GameSelect) and set(seen) == {"qr"}
    assert "Tap a card to start" in table.app.screen().lines


@pytest.mark.parametrize("spec", built_in(), ids=lambda spec: spec.id)
def test_every_setup_step_shows_the_card_and_its_text_whole(page, spec):
    table, web = page
    table.run(to_game(spec.id))
    seen = [check_frame(table, web)]                    # the house rules, at their top
    for _ in range(len(spec.options)):
        table.run("press down")
        seen.append(check_frame(table, web))
    table.run("press up\n" * len(spec.options))
    for _ in range(8):                                  # each step to the deal instruction
        table.run("press select")
        if isinstance(table.app.mode, Playing):
            break
        seen.append(check_frame(table, web))
        if isinstance(table.app.mode, Instruction):
            break
    assert isinstance(table.app.mode, Instruction)
    assert "address" in seen                            # a step with no room for the QR
    assert seen[0] == ("qr" if len(table.app.screen().header) <= 8 else "address")
    table.run("press select")
    assert read_qr(web.desk.latest.image) == []         # not over a game
