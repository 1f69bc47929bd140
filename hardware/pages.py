"""A 128x64 mode "1" image as the eight 8-row pages an SSD1306 or SH1106 stores,
and the smallest page writes that turn one frame into the next.

In the controller's RAM (SSD1306 datasheet §8.7) byte x of page p holds
column x of rows 8p..8p+7, the top row in bit 0.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from PIL import Image

WIDTH, HEIGHT, PAGE_ROWS = 128, 64, 8
PAGES = HEIGHT // PAGE_ROWS
FULL_FRAME_BYTES = WIDTH * PAGES
# Bytes that address one more span in a page already addressed: its lower column, and its
# higher column when that nibble changes (SSD1306 datasheet §10.1.1-2; hardware/display.py
# sends the page once a page). A gap of unchanged columns costs a byte a column to send
# through, so two runs are one span across a gap no wider than this.
SPAN_COST = 1
# A span in a page's XOR with the last frame: a changed column, then any further changed
# columns each after a gap of at most SPAN_COST unchanged ones (a zero byte is an unchanged
# column). The regular expression engine walks the 128 bytes in C, not a Python loop.
_SPAN = re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % SPAN_COST)


class PageWrite(NamedTuple):
    """Bytes for one page, from `column` on (the controller advances the column itself).
    A tuple: a frame makes a dozen or so, and a tuple is built in a fraction of the time."""
    page: int
    column: int
    data: bytes


def pack_pages(image: Image.Image) -> tuple[bytes, ...]:
    """The image in RAM order: one 128-byte string per page."""
    if image.mode != "1" or image.size != (WIDTH, HEIGHT):
        raise ValueError(f'the display takes a mode "1" {WIDTH}x{HEIGHT} image, '
                         f"not mode {image.mode!r} {image.size[0]}x{image.size[1]}")
    # Transposed, each column is a row; packed "1;R" (PIL's bit-reversed packing), each
    # byte holds 8 rows with the top one in bit 0, as the RAM wants.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return tuple(columns[page::PAGES] for page in range(PAGES))


def page_writes(old: tuple[bytes, ...] | None, new: tuple[bytes, ...]) -> list[PageWrite]:
    """The changed column spans of each changed page; every page whole when `old` is None.

    Within a page, two changed runs are sent as one span when the unchanged columns
    between them cost no more than addressing a new span (SPAN_COST command bytes)."""
    if old is None:
        return [PageWrite(page, 0, data) for page, data in enumerate(new)]
    writes = []
    for page, (before, after) in enumerate(zip(old, new)):
        if before != after:
            writes += [PageWrite(page, first, after[first:last + 1])
                       for first, last in changed_spans(before, after)]
    return writes


def changed_spans(before: bytes, after: bytes) -> list[tuple[int, int]]:
    """The (first, last) columns of the spans to send for two different pages.

    The changed bytes are found by XOR of the pages read as integers: `diff` holds one
    byte per column, zero where nothing changed, and each span is a match of `_SPAN` in it.
    """
    diff = (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(WIDTH, "big")
    return [(found.start(), found.end() - 1) for found in _SPAN.finditer(diff)]
