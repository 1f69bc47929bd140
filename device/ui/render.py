"""Draw a Screen onto a 128x64 one-bit image, the form the display drivers take."""
from __future__ import annotations

from PIL import Image, ImageDraw

from .font import HEIGHT, WIDTH, draw_text
from .screen import BODY_LINES, COLUMNS, Screen, fit, fit_header

SIZE = (128, 64)
HEADER_HEIGHT = 11
LINE_PITCH = 13          # 4 body lines of 10 px with 3 px between them
BODY_TOP = 12


def render(screen: Screen) -> Image.Image:
    image = Image.new("1", SIZE, 0)
    if screen.blank:
        return image
    if screen.drift is not None:       # no header bar: nothing may stay lit in one place
        x, y = screen.drift
        for row, line in enumerate(screen.lines[:BODY_LINES]):
            draw_text(image, x, y + row * LINE_PITCH, line)
        return image
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SIZE[0] - 1, HEADER_HEIGHT - 1), fill=1)
    draw_text(image, 1, 1, fit_header(screen.header, screen.header_right), fill=0)
    for row, line in enumerate(screen.lines[:BODY_LINES]):
        y = BODY_TOP + row * LINE_PITCH
        text = fit(line, COLUMNS)
        if row == screen.highlight:
            # the bar is only as wide as its label: moving it repaints two labels, not two
            # full-width rows, which keeps a menu move to a few page writes on the bus
            draw.rectangle((0, y, text_width(text) + 1, y + HEIGHT), fill=1)
            draw_text(image, 1, y, text, fill=0)
        else:
            draw_text(image, 1, y, text, fill=1)
    return image


def text_width(text: str) -> int:
    return len(text) * WIDTH
