"""No word is ever lost: every text of every game and of the device, in both languages, with
names of 1 to 10 letters, pages whole (the pages put end to end hold every word, in order);
a page keeps a column for its mark; a message breaks between phrases. (Every frame of random
playouts with 10-letter names: test_screens_fit.py.)"""
from __future__ import annotations

import functools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import device.texts  # noqa: F401  (registers the device's texts)
from device.ui.layout import layout
from device.ui.overlay import Block, Overlay
from device.ui.paging import pages
from device.ui.screen import BODY_LINES, COLUMNS
from engine.core.text import catalog, forms

from .table import SimTable

LANGUAGES = ("en", "fr")
FIELD = re.compile(r"\{[^}]*\}")
# The font is fixed-width: its widest glyphs are all of them. Capitals and accents stand for
# the names a roster allows (1 to 10 characters).
NAMES = ["W" * n for n in range(1, 11)] + ["Éléonore", "Maximilian", "Bartholome", "Christophe"]
ROOMS = (2, 3, BODY_LINES)         # above a menu while paging, above a number, a whole body


@functools.lru_cache(maxsize=64)
def texts(language: str, name: str) -> list[tuple[str, str]]:
    """(key, text) for every text the display may show (not the command line's), each field
    given `name`."""
    return [(key, FIELD.sub(name, form)) for key, template in catalog(language).items()
            if not key.startswith("cli.") for form in forms(template)]


def words(text: str) -> list[str]:
    return text.split()


def assert_whole(key: str, text: str, found: list[list[str]], room: int) -> None:
    said = [word for page in found for line in page for word in line.split()]
    if all(len(word) < COLUMNS - 1 for word in text.replace("\n", " ").split(" ")):
        assert said == words(text), f"{key} in {room} lines lost words: {found}"
    else:                       # a word longer than a line goes on over the next: every letter
        assert "".join(said) == "".join(words(text)), f"{key} in {room} lines lost: {found}"
    assert all(len(page) <= room for page in found), f"{key}: a page past {room} lines: {found}"
    if len(found) > 1 and all(len(word) < COLUMNS - 1 for word in text.replace("\n", " ").split(" ")):
        assert all(len(line) <= COLUMNS - 1 for page in found for line in page), \
            f"{key}: no column left for the mark: {found}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_pages_whole_with_names_of_1_to_10_letters(language):
    for name in NAMES:
        for key, text in texts(language, name):
            for room in ROOMS:
                found = pages(text, room)
                assert_whole(key, text, found, room)
                if all(len(word) <= COLUMNS - 1 for word in text.replace("\n", " ").split(" ")):
                    assert all(len(line) <= COLUMNS for page in found for line in page), key


def test_a_long_instruction_breaks_between_its_phrases():
    text = "Bartholome: play again, Maximilian takes the card and tap it"
    assert pages(text, 3) == [["Bartholome: play", "again,"], ["Maximilian takes the",
                                                               "card and tap it"]]
    assert pages(text, BODY_LINES) == [["Bartholome: play", "again, Maximilian",
                                        "takes the card and", "tap it"]]


def test_a_text_that_fits_keeps_its_own_lines():
    assert pages("Storm! Discard it,\nshuffle the Beach", BODY_LINES) == [
        ["Storm! Discard it,", "shuffle the Beach"]]


@st.composite
def messages(draw):
    language = draw(st.sampled_from(LANGUAGES))
    name = draw(st.sampled_from(NAMES))
    # a number's field given a name can make a word wider than a line (the one test above
    # checks that such a word goes on over the next); the words of a message here fit a line
    every = [(key, text) for key, text in texts(language, name)
             if all(len(word) < COLUMNS - 1 for word in words(text))]
    chosen = draw(st.lists(st.sampled_from(every), min_size=1, max_size=4))
    return [(text, draw(st.booleans())) for _, text in chosen]


@settings(max_examples=60)
@given(messages())
def test_messages_over_a_screen_hold_every_word_and_never_split_a_short_one(said):
    overlay = Overlay.of([Block(text, stays) for text, stays in said], 0.0, 2.0)
    assert overlay is not None
    shown = [word for page in overlay.pages for line in page for word in line.split()]
    assert shown == [word for text, _ in said for word in words(text)]
    assert all(len(page) <= BODY_LINES for page in overlay.pages)
    if overlay.more:
        assert all(len(line) <= COLUMNS - 1 for page in overlay.pages for line in page)
    # where a page may begin: at a message, or inside one too long for a page of its own
    starts, at = set(), 0
    for text, _ in said:
        long = len(pages(text, BODY_LINES, COLUMNS - 1)) > 1
        starts |= set(range(at, at + len(words(text)))) if long else {at}
        at += len(words(text))
    at = 0
    for page in overlay.pages:
        assert at in starts, f"a page begins inside a short message: {overlay.pages}"
        at += len(" ".join(page).split())


def test_the_french_attack_instruction_pages_every_word(tmp_path):
    """The long names of a whole French table: nothing of the instruction is dropped."""
    table = SimTable(tmp_path, "fr").start("auberge", "Maximilian,Bartholome,Christophe")
    table.run("tap 5#1\ntap 3#1\ntap 8#1\nwait 3\npress select\npress down\npress select")
    shown = " ".join(table.screen.lines).split()
    assert shown == ("Bartholome : pose devant Christophe une carte de ta main, passe-la"
                     .replace(" :", "\u00a0:").split()), table.text
    assert not layout(table.screen).cuts



def test_a_set_aside_notice_with_a_long_file_name_pages_whole(tmp_path):
    from device.storage.card_data import learned_details
    from device.ui.set_aside import SetAsideNotice
    table = SimTable(tmp_path)
    table.app.attach(notice := SetAsideNotice(tmp_path))
    (tmp_path / "cards").mkdir()
    # a learned-details file of a game id as long as a file name on a card may be
    long = "a-very-long-game-name"
    (tmp_path / "cards" / f"{long}.learned.json").write_text("{")
    learned_details(tmp_path, long)
    seen = []
    for _ in range(2):
        seen += table.screen.lines
        assert not layout(table.screen).cuts
        table.run("wait 4")
    whole = table.app.t("ui.set_aside", file=f"{long}.learned.json")
    assert "".join("".join(seen).split()) == "".join(whole.split())     # a long name in pieces
    notice.close()


def test_a_long_name_keeps_a_sentence_the_catalog_began_on_its_own_line():
    """"...your cards\nBob plays next": the break is a sentence's end, kept; the breaks made
    for short names give way."""
    assert pages("Christophe : défausse toutes\ntes cartes\nÀ Maximilian de jouer", 4) == [
        ["Christophe : défausse", "toutes tes cartes", "À Maximilian de jouer"]]


def test_what_a_label_names_stays_whole_after_its_colon():
    """"the discard:\n7 of clubs": the break after a label's colon is kept, so the card's
    name is not split over two lines by a long name before it."""
    assert pages("Bartholome, la défausse :\n7 de trèfle", 3) == [
        ["Bartholome, la", "défausse :", "7 de trèfle"]]
