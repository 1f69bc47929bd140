"""The join card on the OLED, at the game select and through the setup: the page's address as
a QR code at the top right, the join code in text in the header bar beside it; where the
screen's top lines reach under the QR's place, the address in text instead, in the header
bar with the code. Nothing the screen says is covered: the card goes only where the frame
has no text (the header's right side, the time of day, gives way to it).

A phone's camera opens the address with the code after `#`, so the page joins at once; the
code and the address in text are for a person typing them (docs/web.md). The QR's quiet zone
and light modules are lit pixels, its dark modules dark ones: a QR as printed, which every
scanner reads; the lit header bar is its quiet zone above. segno makes it, on the web's
thread, once the page serves.
"""
from __future__ import annotations

from PIL import Image

from device.ui.font import WIDTH, draw_text
from device.ui.game_select import GameSelect
from device.ui.layout import Layout, layout
from device.ui.render import HEADER_HEIGHT, LINE_TOPS, MARK_X
from device.ui.screen import Screen
from device.ui.wizard import Instruction, Step

QUIET = 2                     # light modules around the code (the standard's 4 is wider than the room)
GAP = 3                       # dark pixels between the card and the screen's text

# The address's characters (an IPv4 or IPv6 address and a port), 5 pixels high: the header
# bar holds the whole address and the code in them. Rows top to bottom, "#" a lit pixel.
SMALL = {
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"), "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"), "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "###"),
    "a": (".#.", "#.#", "###", "#.#", "#.#"), "b": ("##.", "#.#", "##.", "#.#", "##."),
    "c": (".##", "#..", "#..", "#..", ".##"), "d": ("##.", "#.#", "#.#", "#.#", "##."),
    "e": ("###", "#..", "##.", "#..", "###"), "f": ("###", "#..", "##.", "#..", "#.."),
    ".": (".", ".", ".", ".", "#"), ":": (".", "#", ".", "#", "."),
    "[": ("##", "#.", "#.", "#.", "##"), "]": ("##", ".#", ".#", ".#", "##"),
}
SMALL_TOP = 2                 # in the 10-pixel header bar: 2 lit rows, 5 of text, 3 lit


def matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules (True: dark), smallest version, lowest correction (the panel
    is clean and close: capacity matters more)."""
    from .lean import bare
    with bare("segno"):                        # segno.make's encoder, without its writers
        from segno import encoder
    code = encoder.encode(url, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def reach(laid: Layout, row: int) -> int:
    """The last pixel column the body row's text lights (-1 for none)."""
    if row >= len(laid.rows):
        return -1
    shown = laid.rows[row]
    text = (shown.marker + shown.text).rstrip() if shown.marker else shown.text.rstrip()
    return -1 if not text.strip() else (0 if shown.marker else 1) + WIDTH * len(text) - 1


def qr_place(laid: Layout, header: str, modules, code: str) -> int | None:
    """The QR's left column at the top right, clear of the scroll marks, when the body rows
    beside it and the header's left text leave it room (with the code between); else None."""
    size = len(modules) + 2 * QUIET
    x0 = MARK_X - 1 - size
    beside = [n for n, top in enumerate(LINE_TOPS) if top < size]        # rows the QR reaches
    if any(reach(laid, n) >= x0 - GAP for n in beside):
        return None
    code_x = x0 - 1 - len(code) * WIDTH              # (the QR's quiet zone is lit: its gap)
    if header and 1 + len(header) * WIDTH + GAP > code_x:
        return None
    return x0


def with_qr(image: Image.Image, header: str, modules, code: str, x0: int) -> Image.Image:
    """The frame with the QR at the top right and the code in the header bar before it."""
    size = len(modules) + 2 * QUIET
    out = image.copy()
    code_x = x0 - 1 - len(code) * WIDTH
    out.paste(1, (1 + len(header) * WIDTH, 0, image.width, HEADER_HEIGHT))   # its right side
    out.paste(0, (x0 - GAP, HEADER_HEIGHT, MARK_X - 1, size + GAP))  # a dark margin below it
    out.paste(1, (x0, 0, x0 + size, size))
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                out.putpixel((x0 + QUIET + x, QUIET + y), 0)
    draw_text(out, code_x, 0, code, fill=0)
    return out


def small_width(text: str) -> int | None:
    """The address's width in the small characters, or None if one is not among them."""
    if any(char not in SMALL for char in text):
        return None
    return sum(len(SMALL[char][0]) + 1 for char in text) - 1


def draw_small(image: Image.Image, x: int, y: int, text: str) -> None:
    """Dark small characters on the lit header bar."""
    for char in text:
        rows = SMALL[char]
        for dy, row in enumerate(rows):
            for dx, pixel in enumerate(row):
                if pixel == "#":
                    image.putpixel((x + dx, y + dy), 0)
        x += len(rows[0]) + 1


def with_address(image: Image.Image, header: str, address: str, code: str) -> Image.Image:
    """The header bar holding the address and the code at its right, the header's left text
    kept where it leaves them room, else given way (the step's question below says where
    the setup is); the body as it was."""
    out = image.copy()
    code_x = image.width - 1 - len(code) * WIDTH
    width = small_width(address)
    if width is None:                      # a host name: the code alone
        at = code_x
    else:
        at = code_x - GAP - 1 - width
    left_fits = 1 + len(header) * WIDTH + GAP <= at
    out.paste(1, ((1 + len(header) * WIDTH) if left_fits else 0, 0, image.width, HEADER_HEIGHT))
    if width is not None:
        draw_small(out, at, SMALL_TOP, address)
    draw_text(out, code_x, 0, code, fill=0)
    return out


def address_of(url: str) -> str:
    """What a person types: the address without its scheme and its last slash."""
    return url.removeprefix("http://").rstrip("/")


class JoinCard:
    """Whether and how the card goes on the frame now: at the game select and through the
    setup, once the page serves (`url`); the QR is made once per join code."""

    def __init__(self) -> None:
        self.url: str | None = None
        self._modules: tuple[str, tuple] | None = None
        self._made: tuple[Image.Image, Image.Image] | None = None

    def modules(self, code: str) -> tuple:
        if self._modules is None or self._modules[0] != code:
            assert self.url is not None
            self._modules = (code, matrix(f"{self.url}#code={code}"))
        return self._modules[1]

    def shown(self, app) -> bool:
        mode = app.mode
        return self.url is not None and app.overlay is None and app.session is None and (
            isinstance(mode, (GameSelect, Step))
            or isinstance(mode, Instruction) and not mode.begun)

    def over(self, image: Image.Image, app, code: str) -> Image.Image:
        if not self.shown(app):
            return image
        if self._made is None or self._made[0] is not image:
            self._made = (image, self.laid_over(image, app.screen(), code))
        return self._made[1]

    def laid_over(self, image: Image.Image, screen: Screen, code: str) -> Image.Image:
        assert self.url is not None
        modules = self.modules(code)
        x0 = qr_place(layout(screen), screen.header, modules, code)
        if x0 is not None:
            return with_qr(image, screen.header, modules, code, x0)
        return with_address(image, screen.header, address_of(self.url), code)
