"""The join card on the OLED: at the game select, the page's address as a QR code with the
join code in text under it, in the body's right columns (the menu's names are short; the
scroll marks' column stays clear); during the setup, the join code at the right of the header
bar, where the step's header leaves it room.

A phone's camera opens the address with the code after `#`, so the page joins at once; the
code in text is for a person typing the address (docs/web.md). The QR's quiet zone and
light modules are lit pixels, its dark modules dark ones: a QR as printed, which every
scanner reads. segno makes it, on the web's thread, once the page serves.
"""
from __future__ import annotations

from PIL import Image

from device.ui.font import HEIGHT, WIDTH, draw_text
from device.ui.game_select import GameSelect
from device.ui.screen import COLUMNS
from device.ui.wizard import Step

QUIET = 2                     # light modules around the code (the standard's 4 is wider than the room)
RIGHT_MARGIN = WIDTH          # the scroll marks' column
TOP = 13                      # under the header bar


def matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules (True: dark), smallest version, lowest correction (the panel
    is clean and close: capacity matters more)."""
    import segno
    code = segno.make(url, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def compose(image: Image.Image, modules, code: str) -> Image.Image:
    """The frame with the card drawn over its body's right columns."""
    size = len(modules) + 2 * QUIET
    out = image.copy()
    left = image.width - RIGHT_MARGIN - max(size, len(code) * WIDTH)
    out.paste(0, (left - 1, TOP - 1, image.width - RIGHT_MARGIN, image.height))   # a gap
    x0 = image.width - RIGHT_MARGIN - size
    out.paste(1, (x0, TOP, x0 + size, TOP + size))
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                out.putpixel((x0 + QUIET + x, TOP + QUIET + y), 0)
    below = TOP + size + 1
    if below + HEIGHT <= image.height:
        draw_text(out, image.width - RIGHT_MARGIN - len(code) * WIDTH, below, code)
    return out


class JoinCard:
    """Whether and how the card goes on the frame now: at the game select, once the page
    serves (`url`); the QR is made once per join code."""

    def __init__(self) -> None:
        self.url: str | None = None
        self._modules: tuple[str, tuple] | None = None
        self._made: tuple[Image.Image, Image.Image] | None = None

    def modules(self, code: str) -> tuple:
        if self._modules is None or self._modules[0] != code:
            assert self.url is not None
            self._modules = (code, matrix(f"{self.url}#code={code}"))
        return self._modules[1]

    def over(self, image: Image.Image, app, code: str) -> Image.Image:
        if self.url is None or app.overlay is not None or not isinstance(app.mode, (GameSelect, Step)):
            return image
        if self._made is None or self._made[0] is not image:
            if isinstance(app.mode, GameSelect):
                made = compose(image, self.modules(code), code)
            else:
                made = in_header(image, app.mode.header(app), code)
            self._made = (image, made)
        return self._made[1]


def in_header(image: Image.Image, header: tuple[str, str], code: str) -> Image.Image:
    """A setup step's frame with the join code at the right of its header bar, where the bar
    has room for it (the QR code has none beside a step's menu)."""
    left, right = header
    if right or len(left) + 1 + len(code) > COLUMNS:
        return image
    out = image.copy()
    draw_text(out, image.width - 1 - len(code) * WIDTH, 0, code, fill=0)
    return out
