"""The back office as a staffer uses it, in headless Chromium (the system's, driven by
Playwright): log in, add a player, revoke a staff card, read this month's leaderboard; and
names that are markup or turn the text around are shown as the text they are, never as HTML.

Nothing waits on a clock: the page marks each full load on its body (data-ready) and each
list it draws is waited for by its own rows.
"""
from __future__ import annotations

import datetime

import pytest

from device.decks.registry import DeckRegistry
from device.fleet.backoffice.history import History
from device.fleet.backoffice.leaderboard import leaderboard
from device.players.roster import Roster
from tests.device.backoffice_client import PASSWORD, serve, sign_in

TODAY = datetime.date(2030, 1, 15)
MARKUP = '<img src=x onerror="document.body.dataset.hacked=1">'
TURNED = "\u202eevoL"                                    # a right-to-left override, then text
STAFF_UID = "04A224B1C2D3E4"


def kept(history: History, n: int, day: str, names: tuple[str, ...], winner: str, title: str = "Palourde") -> None:
    history.first("table-1", f"g{n}", f"{day}T23:00:00+01:00", {
        "at": f"{day}T21:00:00+01:00", "game": "palourde", "title": title,
        "players": [{"name": name, "score": 1} for name in names], "winners": [winner]})


@pytest.fixture
def office(tmp_path):
    """A back office whose history holds games of this month and of the last, one of them with
    names a table could never send (the fleet's parser refuses them): shown as text all the same."""
    history = History(None)
    kept(history, 1, "2030-01-03", ("Ann", "Bob"), "Ann")
    kept(history, 2, "2030-01-09", ("Ann", "Cy"), "Cy")
    kept(history, 3, "2030-01-12", ("Ann", "Bob"), "Ann")
    kept(history, 4, "2029-12-20", ("Bob", "Cy"), "Bob")
    kept(history, 5, "2030-01-14", (MARKUP, TURNED), MARKUP, title=MARKUP)
    DeckRegistry(tmp_path).add_staff(STAFF_UID, "Mo's card")
    server, _, _ = serve(tmp_path, history=history, today=TODAY)
    yield server, history, tmp_path
    server.close()


def test_a_staffer_adds_a_player_revokes_a_card_and_reads_the_months_leaderboard(browser, office):
    server, history, state_dir = office
    page = browser.new_page()
    try:
        page.goto(server.url + "admin/")
        page.fill("#password", "not-the-password")
        page.click("#login-form button")
        page.wait_for_selector("#message:has-text('wrong password')")
        page.fill("#password", PASSWORD)
        page.click("#login-form button")
        page.wait_for_selector("body[data-ready='1']")

        page.fill("#player-name", "Zoé")
        page.click("#player-form button")
        page.wait_for_selector("#players li[data-player='Zoé']")
        assert [p.name for p in Roster(state_dir).players()] == ["Zoé"]
        page.fill("#player-name", "Zoé")                       # again: refused, one clear line
        page.click("#player-form button")
        page.wait_for_selector("#message:has-text('Zoé')")
        assert page.text_content("#message").count("\n") == 0 and len(Roster(state_dir).players()) == 1

        page.click(f"#staff li[data-uid='{STAFF_UID}'] button")
        page.wait_for_selector(f"#staff li[data-uid='{STAFF_UID}']", state="detached")
        assert DeckRegistry(state_dir).staff() == {}

        page.select_option("#board-period", "month")
        page.click("#leaderboard-form button")
        wanted = leaderboard(history, None, "month", TODAY)
        page.wait_for_function("n => document.querySelectorAll('#leaders tr').length === n", arg=len(wanted))
        shown = page.eval_on_selector_all(
            "#leaders tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        assert shown == [[str(r["rank"]), r["player"], str(r["games"]), str(r["wins"]),
                          f"{round(r['win_rate'] * 100)}%"] for r in wanted]
        assert [row[1] for row in shown][:2] == ["Ann", MARKUP]
    finally:
        page.close()


def test_names_and_titles_from_a_table_are_text_never_html(browser, office):
    server, _, _ = office
    page = browser.new_page()
    try:
        sign_in(page, server.url)
        page.wait_for_selector("#games li")
        seen = page.evaluate("""() => ({
            images: document.querySelectorAll("img").length,
            hacked: document.body.dataset.hacked || null,
            leaders: [...document.querySelectorAll("#leaders td")].map(c => c.textContent),
            games: [...document.querySelectorAll("#games li")].map(li => li.textContent),
            bidi: getComputedStyle(document.querySelector("#leaders td")).unicodeBidi})""")
        assert seen["images"] == 0 and seen["hacked"] is None
        assert MARKUP in seen["leaders"] and TURNED in seen["leaders"]
        assert any(MARKUP in line and TURNED in line for line in seen["games"])
        names = page.eval_on_selector_all("#games li:first-child .who", "spans => spans.map(s => s.textContent)")
        assert names == [MARKUP, TURNED]                      # each name isolated in its own span
        assert seen["bidi"] == "isolate"                      # the override turns its own cell only
        page.click(f"#games button:text-is('{TURNED}')")
        page.wait_for_selector("#player-page:not([hidden])")
        assert page.text_content("#player-title") == TURNED
        assert page.evaluate("document.querySelectorAll('img').length") == 0
    finally:
        page.close()
