"""The card request on the table's OLED, read off the frames in both languages: the longest
name a player may have is read whole (over pages where it needs them), with the BACK line
under every page and no glyph cut; BACK cancels it."""
from __future__ import annotations

import pytest

from device.fleet.claim import ClaimBox, request_message, wall_ms_of
from device.fleet.claim_plugin import CardClaim
from device.fleet.claim_screen import ClaimWait
from device.fleet.counter import Counter
from device.fleet.envelope import ADMIN, Signer
from device.fleet.freshness import Freshness
from device.inputs import Tapped
from device.players.roster import NAME_MAX
from device.ui.game_select import GameSelect
from device.ui.layout import layout
from device.ui.paging import PAGE_SECONDS
from tests.device.fleet_tables import ADMIN_KEY, FLEET_KEY, CafeTable, admin_private, table_signer

LONGEST = "Anne-Sophie-Marguerite-Delacroix"
SAID = {"en": ("Tap the card for " + LONGEST, "BACK: cancel"),
        "fr": ("Passe la carte pour " + LONGEST, "BACK\u00a0: annuler")}


class Sent:
    """What the table publishes (no broker here)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.messages.append((topic, payload))


def asked(tmp_path, language: str) -> CafeTable:
    table = CafeTable(tmp_path / "t1", "t1", None)
    table.app.language = language

    def now_ms() -> int:
        return wall_ms_of(table.clock.wall())
    box = ClaimBox("t1", ADMIN_KEY, Freshness(None), now_ms)
    table.app.attach(CardClaim(box, Sent(), table_signer("t1"), tmp_path / "t1", FLEET_KEY))
    cafe = Signer(admin_private(), ADMIN, Counter(tmp_path / "cafe", now_ms=now_ms))
    assert box.receive(*request_message(cafe, "t1", LONGEST)[:2]) is None
    table.play(["wait 1"])
    assert isinstance(table.app.mode, ClaimWait)
    return table


def rows(table) -> list[str]:
    return layout(table.screens[-1]).text().splitlines()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_longest_name_is_read_whole_over_the_pages_in_both_languages(tmp_path, language):
    assert len(LONGEST) == NAME_MAX
    table = asked(tmp_path, language)
    text, back = SAID[language]
    pages: list[list[str]] = []
    while not pages or rows(table) != pages[0]:
        shown = rows(table)
        assert shown[-1].strip() == back and not layout(table.screens[-1]).cuts
        pages.append(shown)
        table.play([f"wait {PAGE_SECONDS}"])
    read = "".join(line.strip().removesuffix(" v").removesuffix(" ^").strip()
                   for page in pages for line in page[1:-1])
    # every letter, in order: a name longer than a line is broken where it must
    assert read.replace(" ", "") == text.replace(" ", "")
    table.play(["press back", "wait 1"])
    assert type(table.app.mode) is GameSelect


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_line_the_wait_says_is_drawn_whole(tmp_path, language):
    """The refusals, the card sent and the time up, each read in full off its frames."""
    table = asked(tmp_path, language)
    before = len(table.screens)
    for uid in (table.app.registry.sim_uid("staff#1"), "04C0FFEE000001"):
        table.app.handle(Tapped(uid, table.app.registry.lookup(uid)))
        table.play(["wait 1"])
    assert isinstance(table.app.mode, GameSelect)              # the second, unknown, was sent
    asked_again = asked(tmp_path / "again", language)
    asked_again.play(["wait 121"])
    said = [*table.screens[before:], *asked_again.screens]
    assert all(not layout(screen).cuts for screen in said)
    words = {"en": ("staff card", "sent to the", "time is up"),
             "fr": ("personnel", "envoyée", "temps écoulé")}[language]
    text = " ".join(layout(screen).text() for screen in said)
    assert all(word in text.replace("\n", " ") for word in words), text
