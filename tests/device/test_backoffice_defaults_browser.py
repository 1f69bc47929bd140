"""A staffer sets a table's house rules and language from the tables page, in headless Chromium:
the form offers the game's options as its rules declare them, sends what was chosen, and says
a value the rules refuse in one line with nothing kept. Nothing waits on a clock: the page
marks each full load on its body, and each answer lands in its message line."""
from __future__ import annotations

import pytest

from device.fleet import keys
from device.fleet.backoffice.defaults import DefaultsDesk
from device.fleet.enrolled import Enrolled
from device.storage.house_defaults import HouseDefaults
from tests.device.backoffice_client import serve, sign_in
from tests.device.fleet_tables import cafe_admin, table_signer


@pytest.fixture
def office(tmp_path):
    server, _, _ = serve(tmp_path)
    cafe_admin(tmp_path)
    Enrolled(tmp_path).enrol("t1", keys.public_text(table_signer("t1").private))
    yield server, tmp_path
    server.close()


def test_a_staffer_sets_a_tables_house_rules_and_language_from_the_page(browser, office):
    server, state_dir = office
    page = browser.new_page()
    try:
        sign_in(page, server.url)
        page.select_option("#house-table", "t1")
        page.select_option("#house-game", "tamalou")
        options = page.locator("#house-options")
        assert options.locator("[data-option='last_snap_s']").input_value() == "5"
        assert options.locator("[data-option='last_snap_s']").get_attribute("max") == "60"
        options.locator("[data-option='lock_caller']").select_option(label="on")
        options.locator("[data-option='snap_match']").select_option(label="points")
        options.locator("[data-option='last_snap_s']").fill("61")      # past the rules' top
        page.select_option("#house-language", "fr")
        page.click("#house-form button")
        assert page.evaluate("document.getElementById('house-form').checkValidity()") is False
        assert DefaultsDesk(state_dir).sent() == {}
        options.locator("[data-option='last_snap_s']").fill("10")
        page.select_option("#house-game", "flouk")                  # what only the rules know
        assert options.locator("[data-option='min_players']").get_attribute("max") == "6"
        options.locator("[data-option='min_players']").fill("6")
        options.locator("[data-option='max_players']").fill("2")
        page.click("#house-form button")
        page.wait_for_selector("#message:not(:empty)")
        assert page.text_content("#message") == "flouk: these options leave no player count possible"
        assert DefaultsDesk(state_dir).sent() == {}
        page.select_option("#house-game", "tamalou")
        options.locator("[data-option='lock_caller']").select_option(label="on")
        options.locator("[data-option='snap_match']").select_option(label="points")
        options.locator("[data-option='last_snap_s']").fill("10")
        page.click("#house-form button")
        page.locator("#message", has_text="House rules set").wait_for()
        assert page.text_content("#message") == ("House rules set for t1; not sent: "
                                                 "this dashboard has no broker to send it with")
        assert DefaultsDesk(state_dir).sent() == {"t1": HouseDefaults(
            {"tamalou": {"lock_caller": True, "snap_match": "points", "last_snap_s": 10}}, "fr")}
        row = page.locator("#house-sent li[data-table='t1']").text_content()
        assert row == "t1 · tamalou: Last snaps (s) 10, Lock caller true, Snap match points · fr"
    finally:
        page.close()
