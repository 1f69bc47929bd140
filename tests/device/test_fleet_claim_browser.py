"""A staffer who never used a shell gives a player a card by tapping it at a table, in headless
Chromium (Playwright), on a real Mosquitto: choose the player, name the table, tap there, give
the card the page offers. Nothing waits on a clock: each step waits for what it makes appear."""
from __future__ import annotations

from device.fleet.counter import wall_ms
from device.fleet.enrolled import Enrolled
from device.players.roster import Roster, new_player
from tests.device.backoffice_client import sign_in
from tests.device.fleet_tables import settings_for

from .test_fleet_claim import NEW_CARD, ClaimTable, ClaimWait
from .test_fleet_claim_backoffice import WAIT_S, Office, broker  # noqa: F401  (the broker fixture)


def test_a_staffer_gives_a_card_tapped_at_a_table(browser, broker, tmp_path):  # noqa: F811
    cafe = tmp_path / "cafe"
    office = Office(cafe, settings_for(broker, table="cafe"))
    table = ClaimTable(tmp_path / "t1", "t1", broker, wall_ms=wall_ms)
    page = browser.new_page()
    try:
        Enrolled(cafe).enrol("t1", table.public_key)
        Roster(cafe).add(new_player("Ann"))
        sign_in(page, office.server.url)
        page.select_option("#claim-player", "Ann")
        page.fill("#claim-table", "t9")                       # not enrolled: one line, nothing sent
        page.click("#claim-form button")
        page.wait_for_selector("#message:has-text('not an enrolled table')")
        table.heard.clear()
        page.fill("#claim-table", "t1")
        page.click("#claim-form button")
        page.wait_for_selector("#message:has-text('Tap the card for Ann')")
        assert office.listening() and table.heard.wait(WAIT_S)
        office.answered.clear()
        table.play(["wait 1"])
        assert isinstance(table.app.mode, ClaimWait)
        table.tap(NEW_CARD)
        assert office.answered.wait(WAIT_S) and office.verdicts[-1] is None
        page.evaluate("claims()")              # what the page does every 2 s while a table waits
        page.wait_for_selector(f"#claims li[data-offer='{NEW_CARD}']")
        page.click(f"#claims li[data-offer='{NEW_CARD}'] button")
        page.wait_for_selector("#players li[data-player='Ann']:has-text('1 card')")
        assert Roster(cafe).find("Ann").cards == (NEW_CARD,)
        assert page.text_content("#message").startswith(f"Ann has the card {NEW_CARD}")
    finally:
        page.close()
        table.plugin.link.close(flush_s=0)
        office.close()
