"""Setting up a game from the table's page: the setup lines of POST /api/setup
(device/ui/setup_lines.py), each a step of the wizard that the OLED shows at once, and the
table's buttons free to take over. In every game, three names typed on a phone reach the first
card with at most 3 presses on the table; a refused line is a 400 with one line and changes
nothing."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.players.roster import Roster
from device.ui.playing import Playing
from device.ui.wizard import FirstPlayer, HouseRules, Instruction
from engine import Tap
from engine.core.registry import built_in
from tests.device.webpage import ask, joined, serve

NAMES = ("Maximilian", "Ann", "Cy")
FIRST_CARD = {"palourde": "clam#1", "auberge": "5#1", "tribord": "4#1", "tamalou": "7C",
              "flouk": "mouta#1"}


@pytest.fixture
def page(tmp_path):
    table, web = serve(tmp_path)
    yield table, web
    web.close()


def told(web, cookie: str, line: str) -> dict:
    status, _, body = ask(web, "POST", "/api/setup", {"line": line}, cookie)
    assert status == 200, (line, body)
    return json.loads(body)


def second_value(option) -> str:
    """A house rule's value other than its default, as an `option` line writes it."""
    value = option.menu_values()[1]
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("spec", built_in(), ids=lambda spec: spec.id)
def test_three_names_typed_on_a_phone_reach_the_first_card_with_few_presses_on_the_table(
        tmp_path, spec):
    table, web = serve(tmp_path)
    try:
        cookie = joined(web)
        for name in NAMES:                                   # typed on the phone
            assert ask(web, "POST", "/api/players", {"name": name}, cookie)[0] == 200
        told(web, cookie, f"game {spec.id}")
        assert isinstance(table.app.mode, HouseRules) and table.app.mode.setup.spec is spec
        rule = spec.options[0]
        told(web, cookie, f"option {rule.key}={second_value(rule)}")
        assert isinstance(table.app.mode, HouseRules) and table.app.mode.menu.key == rule.key
        told(web, cookie, "players " + " ".join(NAMES))
        seats = ("Cy", "Maximilian", "Ann")                  # reordered on the phone
        done = told(web, cookie, "players " + " ".join(seats))
        assert done["setup"]["seated"] == list(seats)
        asks = spec.look.asks_first is not None
        assert isinstance(table.app.mode, FirstPlayer if asks else Instruction)
        if asks:
            told(web, cookie, "first Ann")
        told(web, cookie, "start")
        assert isinstance(table.app.mode, Instruction)       # the deal, on the OLED
        presses = 0
        if spec.id == "flouk":                              # its round begins with SELECT
            table.run("press select")
            presses += 1
            assert isinstance(table.app.mode, Playing)
            table.run("press select")
            presses += 1
        table.run(f"tap {FIRST_CARD[spec.id]}")
        assert presses <= 3
        session = table.app.session
        assert session is not None and session.config.players == seats
        assert dict(session.config.options)[rule.key] == rule.parse(second_value(rule))
        if asks:
            assert session.config.first == "Ann"
        assert Tap(FIRST_CARD[spec.id]) in session.events          # the first card, taken
        assert [p.name for p in Roster(tmp_path).players()][:3] == list(seats)
    finally:
        web.close()


def test_the_table_buttons_take_over_a_setup_begun_on_a_phone(page):
    table, web = page
    cookie = joined(web)
    for name in NAMES:
        ask(web, "POST", "/api/players", {"name": name}, cookie)
    told(web, cookie, "game tamalou")
    told(web, cookie, "players Ann Cy")
    assert isinstance(table.app.mode, FirstPlayer)
    table.run("press down\npress select")                    # who starts, on the table: Cy
    assert isinstance(table.app.mode, Instruction) and table.app.mode.setup.first == "Cy"
    table.run("press back")                                  # back to who starts
    told(web, cookie, "start")                               # the phone again: as it was left
    table.run("press select")
    assert table.app.session.config.players == ("Ann", "Cy")
    assert table.app.session.config.first == "Cy"


def test_the_setup_offers_every_game_its_rules_and_their_meanings(page):
    table, web = page
    cookie = joined(web)
    status, _, body = ask(web, "GET", "/api/setup", cookie=cookie)
    offer = json.loads(body)
    assert status == 200 and offer["setup"] is None
    assert [g["id"] for g in offer["games"]][0] == "palourde"
    assert all(g["pitch"] and g["players"][0] <= g["players"][1] for g in offer["games"])
    now = told(web, cookie, "game tribord")["setup"]
    assert now["game"] == "tribord" and now["asks_first"]
    tokens = next(r for r in now["rules"] if r["key"] == "start_tokens")
    assert tokens["numbers"] == [1, 99] and tokens["value"] == "10" and tokens["meaning"]
    assert all(r["meaning"] for r in now["rules"])           # each from the game's rules.md
    assert ask(web, "GET", "/api/setup")[0] == 401


REFUSED = ["", "dance", "game", "game chess", "game palourde auberge", "option", "option x",
           "option storm_ends_turn=maybe", "option nothing=1", "players", "players Ann",
           "players Ann Ann", "players Zed Ann", "players A B C D E F G H", "first",
           "first Zed", "start now", "start", "players Ann Cy\x00", '"unclosed']


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.one_of(st.sampled_from(REFUSED), st.text(max_size=60)),
       in_setup=st.booleans())
def test_a_setup_line_refused_is_a_400_with_one_line_and_changes_nothing(page, line, in_setup):
    table, web = page
    cookie = getattr(web, "test_cookie", None)
    if cookie is None:
        cookie = web.test_cookie = joined(web)                # type: ignore[attr-defined]
        for name in ("Ann", "Cy"):
            ask(web, "POST", "/api/players", {"name": name}, cookie)
    if in_setup and table.app.session is None and table.app.mode.__class__.__name__ == "GameSelect":
        told(web, cookie, "game palourde")
    mode, screen, version = table.app.mode, table.app.screen(), web.desk.latest.version
    setup = getattr(mode, "setup", None)
    before = (setup.players, dict(setup.seated), dict(setup.options), setup.first) if setup else None
    status, _, body = ask(web, "POST", "/api/setup", {"line": line}, cookie)
    if status == 200:
        return                                               # a line the table takes: not this test's
    error = json.loads(body)["error"]
    assert status == 400 and error and "\n" not in error
    assert table.app.mode is mode and table.app.screen() == screen
    assert web.desk.latest.version == version
    if setup is not None:
        assert (setup.players, dict(setup.seated), dict(setup.options), setup.first) == before
