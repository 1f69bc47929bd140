"""The fleet's import offer pages as every long text of the table does, read off the frames:
a mark while more follows, a page turning by itself and on DOWN, UP back to the first, the
BACK line kept under every page."""
from __future__ import annotations

from device.decks.registry import DeckRegistry
from device.fleet.shared import staff_message
from device.ui.layout import layout
from device.ui.paging import PAGE_SECONDS
from tests.device.fleet_tables import FLEET_KEY, admin_signer
from tests.device.test_fleet_parts import fake_table

NAMES = ["Maximilian", "Bartholome", "Christophe", "Anne-Sophie", "Jean-Baptiste"]


def offered(tmp_path):
    table, _ = fake_table(tmp_path)
    there = DeckRegistry(tmp_path / "there")
    for n, name in enumerate(NAMES):
        there.add_staff(f"04{n:012X}", name)
    table.inbox.receive(*staff_message(there, "table-3", "now", FLEET_KEY,
                                       admin_signer(tmp_path / "cafe")))
    table.play(["wait 1"])
    return table


def rows(table) -> list[str]:
    return layout(table.screens[-1]).text().splitlines()


def test_the_offer_turns_its_pages_by_itself_with_a_mark_and_keeps_every_name(tmp_path):
    table = offered(tmp_path)
    pages: list[list[str]] = []
    while not pages or rows(table) != pages[0]:
        shown = rows(table)
        assert shown[-1] == "  BACK: not now" and not layout(table.screens[-1]).cuts
        pages.append(shown)
        table.play([f"wait {PAGE_SECONDS}"])
    assert len(pages) > 1
    assert all(page[-2].endswith(" v") for page in pages[:-1])     # more follows
    assert all(page[1].endswith(" ^") for page in pages[1:])       # began before it
    text = " ".join(line[2:].removesuffix(" v").removesuffix(" ^")
                    for page in pages for line in page[1:-1])
    assert text == ("5 staff cards from table-3: " + ", ".join(sorted(NAMES))
                    + ". Tap a staff card to import")


def test_down_turns_the_offers_page_and_up_reads_it_from_the_first(tmp_path):
    table = offered(tmp_path)
    first = rows(table)
    table.play(["press down", "wait 1"])
    second = rows(table)
    assert second != first and second[1].endswith(" ^")
    table.play(["press up", "wait 1"])
    assert rows(table) == first
