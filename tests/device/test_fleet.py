"""The café fleet against a real Mosquitto (and the dashboard page in headless Chromium).

Ten tables play whole games at once while the dashboard follows; the broker restarts
mid-game and the dashboard still has every event; a table with the wrong password is
refused, says so, and plays on; decks and staff cards travel from table to table.
Without Mosquitto (or Chromium, for the page) these tests skip and say why.
"""
from __future__ import annotations

import datetime
import io
import json
import random
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from device.cli import main
from device.decks.registry import DeckRegistry
from device.fleet import schema
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.feed import subscribe
from device.fleet.retained import fetch_retained
from device.fleet.shared import enrol_tapped
from device.fleet.table_state import finished_record
from device.fleet.topics import decode, online_of, table_topic
from device.inputs import PartStatus, ReaderOffline
from tests.device.browsers import Tab
from tests.device.fleet_tables import (
    ADMIN_KEY,
    FLEET_KEY,
    SETTLE,
    CafeTable,
    a_deck,
    cafe_admin,
    plain,
    random_game_lines,
    settings_for,
    settle,
    showing,
)
from tests.device.mosquitto import PASSWORD, USER, Broker, running_broker

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py

GAMES = ("palourde", "auberge", "tribord")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
GAME_LIMIT = 1000              # events: every random game here ends well before
WAIT_S = 30.0


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


def dashboard_feed(broker, board: Board, name: str = "tabletop-dashboard-test"):
    feed = subscribe(settings_for(broker), board, name)
    assert feed.wait_up(WAIT_S), feed.refused or feed.unreachable
    return feed


# ---- ten tables at once ------------------------------------------------------------------------

@dataclass
class Cafe:
    board: Board
    tables: list[CafeTable]
    finished: dict[str, dict]


def evening(table: CafeTable, number: int, finished: dict, errors: list) -> None:
    """A whole game, then a second one left half-way (the last table stays idle)."""
    try:
        rng = random.Random(number)
        players = [NAMES[(number + k) % len(NAMES)] for k in range(3)]
        table.start(GAMES[number % len(GAMES)], players)
        table.play(random_game_lines(table.app, rng, GAME_LIMIT))
        finished[table.name] = plain(finished_record(table.view()))
        table.play(["press select"])                        # leave the result: finished
        if number < 9:
            table.start(GAMES[(number + 1) % len(GAMES)], players)
            table.play(random_game_lines(table.app, rng, 6))
    except Exception as exc:                                # noqa: BLE001  (reported below)
        errors.append(f"{table.name}: {exc!r}")


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cafe")
    with running_broker(folder) as broker:
        board = Board()
        feed = dashboard_feed(broker, board)
        tables = [CafeTable(folder / f"table-{n}", f"table-{n}", settings_for(broker))
                  for n in range(1, 11)]
        try:
            finished = play_evenings(tables)
            settle(board, showing(tables), WAIT_S, broker)
            yield Cafe(board, tables, finished)
        finally:
            for table in tables:
                table.link.close(flush_s=0)
            feed.close(flush_s=0)


def play_evenings(tables: list[CafeTable]) -> dict[str, dict]:
    """Every table plays at once, in its own thread; then two parts fail. The finished games."""
    finished, errors = {}, []
    players = [threading.Thread(target=evening, args=(table, n, finished, errors))
               for n, table in enumerate(tables)]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join(timeout=10 * WAIT_S)        # bounds a hang only: ten games on a loaded machine
    assert not errors and not any(thread.is_alive() for thread in players), errors
    tables[2].app.handle(ReaderOffline("no answer"))
    tables[6].app.handle(PartStatus("display", False, "I2C error"))
    for table in (tables[2], tables[6]):
        table.play(["wait 1"])                              # the next frame shows the fault
    return finished


def test_ten_tables_at_once_each_shown_as_it_is(cafe):
    view = cafe.board.view()
    seen = {table["name"]: table for table in view["tables"]}
    assert sorted(seen) == sorted(table.name for table in cafe.tables)
    for table in cafe.tables:
        shown = seen[table.name]
        assert shown["online"] is True and shown["missed"] == 0
        assert shown["seq"] == table.plugin.seq > 0
        game = plain(table.view())
        assert shown["state"]["game"] == (game and schema.game_view(game))
    assert seen["table-10"]["state"]["activity"] == "idle"
    assert seen["table-1"]["state"]["activity"] == "playing"
    assert seen["table-3"]["state"]["faults"] == {"reader": "Reader offline"}
    assert seen["table-7"]["state"]["faults"] == {"display": "Display fault"}
    kept = ("game", "title", "players", "winners", "headline")      # what the board keeps
    now = datetime.datetime.now().astimezone()
    games = {game["table"]: {k: game[k] for k in kept} for game in view["finished"]}
    assert games == {name: {k: schema.finished(record, now)[k] for k in kept}
                     for name, record in cafe.finished.items()}


# What the wall screen measures in the page: the body's type, the smallest text drawn, and
# anything that runs off the screen's right edge.
MEASURE = """
const texts = [...document.querySelectorAll("body *")].filter((node) => node.offsetParent !== null
  && [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()));
return {width: innerWidth, height: innerHeight, scroll: document.documentElement.scrollWidth,
        body: parseFloat(getComputedStyle(document.body).fontSize),
        smallest: Math.min(...texts.map((node) => parseFloat(getComputedStyle(node).fontSize))),
        wide: texts.filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5)
                   .map((node) => node.textContent)};
"""
WALL = (1920, 1080)


def test_dashboard_page_in_chromium(cafe, tmp_path, shared_chromium):
    """The café at 1920x1080, as a TV across the room shows it."""
    cafe.board.receive(table_topic("table-11", "online"), b"false")     # a table switched off
    server = DashboardServer(cafe.board, "127.0.0.1", 0, token="tide-3").start()
    browser = Tab(shared_chromium, size=WALL)
    try:
        browser.open(server.url + "#token=tide-3")
        page = browser.page_at_version(cafe.board.version)
        for table in cafe.tables:
            assert f'data-table="{table.name}"' in page
        first = cafe.tables[0].view()
        assert first["title"] in page and first["players"][0]["name"] in page
        assert "Reader offline" in page and "Display fault" in page
        assert page.count('class="finished"') == len(cafe.finished)
        assert "10 tables · 10 online" not in page and "11 tables · 10 online" in page
        assert "offline since " in page and "at the table " in page and " min<" in page
        measured = browser.run(MEASURE)
        assert (measured["width"], measured["height"]) == WALL
        # ten busy tables fill the screen: the type gives way, down to 0.9 % of the width, so
        # that nothing is cut (tests/device/test_wall_screen.py: the screen sizes, the cuts)
        assert measured["body"] >= 0.009 * WALL[0] and measured["smallest"] >= 0.009 * WALL[0], \
            measured
        assert measured["scroll"] <= WALL[0] and not measured["wide"], measured
        picture = browser.screenshot()
        cafe.board.receive(table_topic("table-12", "online"), b"true")   # live, through the stream
        assert 'data-table="table-12"' in browser.page_at_version(cafe.board.version)
    finally:
        browser.close()
        server.close()
    assert picture.startswith(b"\x89PNG")
    (tmp_path / "dashboard.png").write_bytes(picture)


# ---- a broker restart, wrong credentials -------------------------------------------------------

def test_broker_restart_mid_game_loses_nothing(tmp_path, broker):
    board = Board()
    feed = dashboard_feed(broker, board)
    tables = [CafeTable(tmp_path / f"t{n}", f"t{n}", settings_for(broker)) for n in range(3)]
    rngs = [random.Random(100 + n) for n in range(3)]
    for table, rng in zip(tables, rngs):
        assert table.link.wait_up(WAIT_S)
        table.start("palourde", ["Ann", "Bob", "Cy"])
        table.play(random_game_lines(table.app, rng, 5))
    broker.stop()
    for table, rng in zip(tables, rngs):                  # played while the broker is away
        table.play(random_game_lines(table.app, rng, 8))
    broker.start()
    for table, rng in zip(tables, rngs):
        table.play(random_game_lines(table.app, rng, GAME_LIMIT))
        table.play(["press select"])
        assert table.link.wait_up(WAIT_S)
    ready = showing(tables)
    view = settle(board, lambda view: ready(view) and len(view["finished"]) == len(tables),
                  WAIT_S, broker)
    for shown in view["tables"]:
        assert shown["missed"] == 0 and shown["online"] is True
    for table in tables:
        table.link.close()
    feed.close(flush_s=0)


def test_wrong_credentials_are_refused_and_the_game_plays_on(tmp_path, broker):
    wrong = settings_for(broker, password="not-" + PASSWORD)
    refused = CafeTable(tmp_path / "refused", "refused", wrong)
    alone = CafeTable(tmp_path / "alone", "alone", None)
    assert not refused.link.wait_up(WAIT_S)
    assert "Not authorized" in refused.link.refused
    for table in (refused, alone):
        table.start("palourde", ["Ann", "Bob"])
        table.play(random_game_lines(table.app, random.Random(7), GAME_LIMIT))
    assert refused.view() == alone.view() and refused.view()["over"]
    refused.play(["wait 1"])
    assert refused.screens[-1].header_right == "Fleet refused"
    refused.link.close(flush_s=0)


# ---- shared decks and staff cards --------------------------------------------------------------

def config_file(folder: Path, broker, table: str) -> Path:
    path = folder / f"{table}.toml"
    path.write_text(f'[fleet]\nenabled = true\nhost = "{broker.host}"\nport = {broker.port}\n'
                    f'username = "{USER}"\npassword = "{PASSWORD}"\ntable = "{table}"\n'
                    f'key = "{FLEET_KEY}"\nadmin_key = "{ADMIN_KEY}"\n')
    return path


def test_a_shared_deck_is_offered_at_idle_and_a_staff_card_imports_it(tmp_path, broker, capsys):
    a_deck(DeckRegistry(tmp_path / "a"), "cafe2")
    cafe_admin(tmp_path / "a")                               # the café's machine
    table_a = ["--config", str(config_file(tmp_path, broker, "table-a")),
               "--state-dir", str(tmp_path / "a")]
    assert main(["deck", "publish", "cafe2", *table_a]) == 0
    assert "tabletop/shared/decks/cafe2" in capsys.readouterr().out
    table = CafeTable(tmp_path / "b", "table-b", settings_for(broker))
    assert table.heard.wait(WAIT_S)
    table.play(["wait 1"])                                  # at idle: the offer comes up
    assert "New deck cafe2 (59 cards)" in " ".join(table.screens[-1].lines)
    table.play(["press down"])                              # its next page says from where
    assert "from table-a" in " ".join(table.screens[-1].lines)
    table.play(["tap clam#1"])
    assert "Tap a staff card" in " ".join(table.screens[-1].lines)
    table.play([SETTLE, "tap staff#1"])
    assert "Deck cafe2" in " ".join(table.screens[-1].lines)
    assert table.registry.info("cafe2").complete
    table.play([SETTLE])
    assert table.screens[-1].header == "TABLETOP"           # back at game select, not offered again
    table.link.close()


def test_fleet_commands_share_and_import(tmp_path, broker, capsys):
    here = DeckRegistry(tmp_path / "a")
    a_deck(here, "cafe3")
    here.add_staff("04AABBCCDDEEFF", "Morgane")
    cafe_admin(tmp_path / "a")
    config = str(config_file(tmp_path, broker, "table-a"))
    table_a, other = (["--config", config, "--state-dir", str(tmp_path / d)] for d in "ac")
    assert main(["deck", "staff", "publish", *table_a]) == 0
    assert main(["deck", "publish", "cafe3", *table_a]) == 0
    assert main(["deck", "publish", "nope", *table_a]) == 2
    capsys.readouterr()
    assert main(["fleet", "shared", *other]) == 0
    listed = capsys.readouterr().out
    assert "cafe3" in listed and "1 card " in listed
    assert main(["fleet", "shared", "--json", *other]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "decks": [{"name": "cafe3", "family": "palourde", "table": "table-a",
                   "cards": here.info("cafe3").size}],
        "staff": [{"table": "table-a", "cards": 1}], "players": []}
    assert main(["fleet", "import-deck", "cafe3", *other]) == 0
    assert main(["fleet", "import-deck", "cafe9", *other]) == 2
    assert "no shared deck 'cafe9'" in capsys.readouterr().err
    assert main(["fleet", "import-staff", *other]) == 0
    there = DeckRegistry(tmp_path / "c")
    assert there.info("cafe3").complete and not there.staff()      # each waits for its tap
    assert enrol_tapped(there, FLEET_KEY, "04AABBCCDDEEFF") == "Morgane"
    assert there.staff() == {"04AABBCCDDEEFF": "Morgane"}


def test_fleet_commands_refused_with_wrong_password(tmp_path, broker, capsys):
    config = config_file(tmp_path, broker, "table-a")
    config.write_text(config.read_text().replace(PASSWORD, "wrong"))
    assert main(["fleet", "shared", "--config", str(config), "--state-dir", str(tmp_path)]) == 2
    assert "refused us: Not authorized" in capsys.readouterr().err
    assert main(["fleet", "shared", "--json", "--config", str(config)]) == 2
    said = json.loads(capsys.readouterr().out)
    assert list(said) == ["error"] and "refused us: Not authorized" in said["error"]


# ---- the command line table ----------------------------------------------------------------------

def test_tabletop_run_publishes_when_the_config_says_so(tmp_path, broker, monkeypatch, capsys):
    config = config_file(tmp_path, broker, "table-9")
    monkeypatch.setattr(sys, "stdin", io.StringIO("tap clam#1\ntap clam#2\n"))
    assert main(["run", "--sim", "--config", str(config), "--state-dir", str(tmp_path / "s"),
                 "--game", "palourde", "--players", "Ann,Bob"]) == 0
    retained = fetch_retained(settings_for(broker), "tabletop/table-9/#")
    state = decode(retained["tabletop/table-9/state"])
    assert online_of(retained["tabletop/table-9/online"])[0] is False
    assert state["game"]["game"] == "palourde"
    assert [p["score"] for p in state["game"]["players"]] == [2, 0]


def test_a_table_is_on_the_board_before_its_first_input(tmp_path, broker, monkeypatch):
    config = config_file(tmp_path, broker, "table-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))           # started, and nobody came
    assert main(["run", "--sim", "--config", str(config), "--state-dir", str(tmp_path / "s")]) == 0
    board = Board()
    for topic, payload in fetch_retained(settings_for(broker), "tabletop/table-8/#").items():
        board.receive(topic, payload)
    (table,) = board.view()["tables"]
    assert table["name"] == "table-8" and table["state"] is not None
    assert (table["state"]["activity"], table["state"]["game"]) == ("idle", None)


def test_a_table_reaches_the_broker_over_tls(tmp_path):
    broker = Broker(tmp_path)
    ca = broker.add_tls()
    broker.start()
    try:
        over_tls = settings_for(broker, port=broker.tls_port, tls=True, ca_file=ca)
        table = CafeTable(tmp_path / "t", "t-tls", over_tls)
        assert table.link.wait_up(WAIT_S), table.link.refused or table.link.unreachable
        table.start("palourde", ["Ann", "Bob"])
        table.play(["tap clam#1", "tap clam#2"])
        assert table.link.close(flush_s=WAIT_S)
        retained = fetch_retained(over_tls, "tabletop/t-tls/state")
        state = decode(retained["tabletop/t-tls/state"])
        assert [p["score"] for p in state["game"]["players"]] == [2, 0]
    finally:
        broker.stop()
