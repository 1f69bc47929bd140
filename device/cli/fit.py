"""What of a game's texts the table's screen cannot show, by the device's own layout rules.

The device pages a text longer than its place (device/ui/paging.py): a long prompt is read a
page at a time, so length alone is no fault. What it cannot show is a word wider than a row
(the screen breaks it in two, where a reader would not), a line of the catalog that takes more rows than a page holds (a
run-on sentence the reader waits through page after page: break it with `\\n`), a menu entry
wider than the menu's column or on two lines (an entry is one row), and a header where the
game's name and its badge do not fit side by side.
"""
from __future__ import annotations

from device.ui.paging import pages
from device.ui.screen import BODY_LINES, COLUMNS, MENU_COLUMNS, wrap

PAGED = ("deal", "prompt", "hint", "effect", "refusal", "headline")
MENU_NAME = MENU_COLUMNS - 1        # a game's name on the game menu: beside a scroll mark too


def misfit(kind: str, text: str, header: str = "") -> str | None:
    """Why `text`, shown as `kind` (device.conformance.shown_texts), does not fit the screen;
    None where it does. `header`: the game's name as the header shows it, beside a badge."""
    if kind in PAGED:
        return paged_misfit(text)
    if kind == "option":
        if "\n" in text or len(text) > MENU_COLUMNS:
            return f"menu entry {text!r} is not one row of {MENU_COLUMNS} characters"
    elif kind == "menu":
        if len(text) > MENU_NAME:
            return f"name {text!r} on the game menu is over {MENU_NAME} characters"
    elif kind == "name":
        if len(text) > COLUMNS:
            return f"header {text!r} is over {COLUMNS} characters"
    elif kind == "badge" and len(header) + 1 + len(text) > COLUMNS:
        return f"header {header!r} and badge {text!r} take over {COLUMNS} characters"
    return None


def paged_misfit(text: str) -> str | None:
    for line in text.split("\n"):
        rows = len(wrap(line))
        if rows > BODY_LINES:
            return (f"a line of {len(line)} characters takes {rows} rows, a page {BODY_LINES}: "
                    f"break it with \\n ({line[:30]!r}...)")
    paged = len(pages(text, BODY_LINES)) > 1
    width = COLUMNS - 1 if paged else COLUMNS           # paged: a column for the mark
    for word in text.replace("\n", " ").split(" "):     # as the device breaks: a no-break
        if len(word) > width:                            # space holds its words together
            return f"the word {word!r} is wider than a row ({len(word)} > {width} characters)"
    return None
