"""What `check-game` holds a game's texts to (device/cli/fit.py): what the screen cannot show,
by the device's own wrapping and paging, and nothing the device pages whole."""
from __future__ import annotations

import pytest

from device.cli.fit import misfit
from device.ui.paging import pages
from device.ui.screen import BODY_LINES


def test_a_long_text_in_short_lines_is_paged_and_fits():
    text = ("Ann: tap your card\nthen Bob taps his,\nthen Cy taps hers.\nThe highest takes\n"
            "the round's cards,\nand leads the next.")
    assert len(pages(text, BODY_LINES)) > 1
    assert misfit("prompt", text) is None


def test_a_prompt_of_130_characters_on_one_line_fails():
    text = "Ann: " + "tap " * 31 + "now"
    assert len(text) > 125 and "\n" not in text
    assert misfit("prompt", text).startswith(f"a line of {len(text)} characters takes 7 rows, a page 4")


@pytest.mark.parametrize("width, paged, fits", [(21, False, True), (22, False, False),
                                                (20, True, True), (21, True, False)])
def test_a_word_fits_a_row_or_fails(width, paged, fits):
    """A page of a text that goes on keeps a column for its mark: a word there has 20."""
    word = "W" * width
    text = word + ("\nThen tap your card." * 6 if paged else "")
    assert (len(pages(text, BODY_LINES)) > 1) == paged
    assert (misfit("hint", text) is None) == fits


@pytest.mark.parametrize("kind, text, header, fits", [
    ("option", "No thanks! (1 chip)", "", True),
    ("option", "Non merci ! (1 jeton)", "", False),          # 21: a menu row holds 20
    ("option", "Take\nit", "", False),
    ("menu", "L'Auberge des pirates", "", False),
    ("name", "NO THANKS!", "", True),
    ("badge", "24 left", "NO THANKS!", True),
    ("badge", "24 cards left", "NO THANKS!", False),
])
def test_menu_entries_names_and_badges(kind, text, header, fits):
    assert (misfit(kind, text, header) is None) == fits
