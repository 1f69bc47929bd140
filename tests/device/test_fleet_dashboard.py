"""The dashboard as a wall screen: words only, in French and English, offline tables marked
with since when and not counted as playing, times at the table, the finished list bounded,
and a banner while its own broker link is down (real Mosquitto, headless Chromium).
"""
from __future__ import annotations

import datetime
import json
import urllib.request
from types import SimpleNamespace

import pytest

from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.page import page
from device.fleet.sitting import SITTING_GAP_S, Sitting
from device.fleet.topics import encode, table_topic
from device.fleet.words import to_plain, words
from device.sim.clock import VirtualClock
from engine.core.text import msg, render
from tests.device.browsers import Tab
from tests.device.fleet_tables import CafeTable, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import WAIT_S, WALL, dashboard_feed
from tests.device.test_fleet_board import EVENING, KEY, Clocks, finished, iso
from tests.device.test_fleet_board import state as board_state
from tests.device.test_fleet_parts import fake_table

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py

CLOCK = "2030-01-02T20:15:00+01:00"


def state(activity: str = "playing", table: str = "t1", **extra) -> bytes:
    return encode({"table": table, "at": CLOCK, "activity": activity, "faults": {}, "game": None,
                   **extra})


def test_offline_tables_are_marked_since_when_and_not_counted_as_playing():
    board = Board(clock=lambda: CLOCK)
    for name in ("t1", "t2", "t3"):
        board.receive(table_topic(name, "online"), b"true")
        board.receive(table_topic(name, "state"), state(table=name))
    board.receive(table_topic("t4", "state"), state("idle", "t4"))
    board.receive(table_topic("t3", "online"), b"false")
    shown = page(board.view(), "en")
    assert shown["counts"] == {"tables": 4, "online": 2, "playing": 2, "offline": 1}
    t3 = {t["name"]: t for t in shown["tables"]}["t3"]
    assert (t3["activity"], t3["offline_since"]) == ("offline", CLOCK)
    board.receive(table_topic("t3", "online"), b"true")
    shown = page(board.view(), "en")
    assert shown["counts"]["playing"] == 3 and shown["tables"][2]["offline_since"] is None


def test_counts_are_worded_in_the_form_their_number_takes():
    board = Board(clock=lambda: CLOCK)
    board.receive(table_topic("t1", "online"), b"true")
    board.receive(table_topic("t1", "state"), state())
    assert page(board.view(), "en")["counted"] == ["1 table", "1 online", "1 playing"]
    board.receive(table_topic("t2", "online"), b"false")
    assert page(board.view(), "fr")["counted"] == ["2 tables", "1 en ligne", "1 en jeu",
                                                   "1 hors ligne"]
    board._tables["t1"]["missed"] = 1           # a gap in its events, as the broker dropped some
    assert page(board.view(), "en")["tables"][0]["missed_words"] == "1 event missed"


def test_the_finished_list_is_the_last_n_newest_first():
    board, n = Board(day=lambda: "2030-01-02", clock=lambda: "2030-01-02T23:00:00+01:00"), 4
    for minute in range(n + 3):
        board.receive(table_topic("t1", "finished"), encode({
            "table": "t1", "at": f"2030-01-02T20:{minute:02d}:00+01:00", "title": "Palourde",
            "players": [{"name": "Ann", "score": minute}], "winners": ["Ann"]}))
    shown = page(board.view(), "en", finished=n)["finished"]
    assert [g["at"][14:16] for g in shown] == ["06", "05", "04", "03"]
    assert len(page(board.view(), "en")["finished"]) == n + 3           # default: 10


def test_unnamed_seats_of_different_games_are_no_one_on_the_leaderboard():
    """P2 won at two tables: two different people, neither of them on the day's leaderboard."""
    board = Board(day=lambda: "2030-01-02", clock=lambda: "2030-01-02T23:00:00+01:00")
    for table, names, winner in (("t1", ("P1", "P2"), "P2"), ("t2", ("P1", "P2", "Ann"), "P2"),
                                 ("t3", ("Ann", "Bob"), "Ann")):
        board.receive(table_topic(table, "finished"), encode({
            "table": table, "at": "2030-01-02T20:00:00+01:00", "title": "Palourde",
            "players": [{"name": n, "score": 1} for n in names], "winners": [winner]}))
    leaders = page(board.view(), "en")["leaders"]
    assert [(p["name"], p["wins"], p["games"]) for p in leaders] == [("Ann", 1, 2), ("Bob", 0, 1)]


def test_the_last_event_is_words_of_the_dashboards_language(tmp_path):
    table, link = fake_table(tmp_path)
    table.start("palourde", ["Ann", "Bob"])
    table.play(["tap clam#1", "tap clam#2", "wait 1"])
    board = Board()
    board.receive(table_topic("t1", "state"), encode(link.of("state")[-1]))
    for language in ("en", "fr"):
        shown = page(board.view(), language)
        t1 = shown["tables"][0]
        assert t1["last"] == render(msg("pa.clam_pair", name="Ann", n=2, next="Bob"), language)
        assert t1["game"]["prompt"] == render(msg("pa.prompt.flip1", name="Bob"), language)
        text = json.dumps(shown, ensure_ascii=False)
        assert "clam#" not in text and "pa." not in text and '"event"' not in text
    assert "\n" in page(board.view(), "en")["tables"][0]["last"]      # the screen's line breaks


def test_words_no_catalog_knows_render_as_nothing():
    known = to_plain(msg("pa.clam_pair", name="Ann", n=2, next="Bob"))
    for bad in ({"key": "pa.nope"}, {"key": "pa.clam_pair", "args": {"name": {"key": "x.y"}}},
                {"key": "pa.clam_pair", "args": {}}, {"key": 3}, [known], "pa.clam_pair",
                {"key": "pa.clam_pair", "args": {"name": True, "n": 2}}, None):
        assert words(bad, "en") is None, bad
    board = Board()
    board.receive(table_topic("t1", "state"), state(said={"last": [known, {"key": "evil"}],
                                                          "faults": {"reader": {"key": "x"}},
                                                          "prompt": None}))
    t1 = page(board.view(), "fr")["tables"][0]
    assert t1["last"] == render(msg("pa.clam_pair", name="Ann", n=2, next="Bob"), "fr") and t1["faults"] == []


def test_time_at_the_table_lasts_across_games_until_the_table_is_left():
    clock = VirtualClock(wall="2030-01-02T20:00:00+01:00")
    sitting = Sitting()
    app = SimpleNamespace(session=None, clock=clock, store=SimpleNamespace(began=None))

    def at(minutes: int) -> str:
        return f"2030-01-02T{20 + minutes // 60}:{minutes % 60:02d}:00+01:00"
    app.session = first = object()
    assert sitting.follow(app, False)["seated"] == at(0)
    clock.advance(25 * 60)
    assert sitting.follow(app, True) == {"seated": at(0), "started": at(0), "ended": at(25)}
    clock.advance(60)
    assert sitting.follow(app, True)["ended"] == at(25)
    app.session = None
    clock.advance(60)
    assert sitting.follow(app, False)["seated"] is None
    app.session = second = object()
    clock.advance(3 * 60)                                            # the same people again
    assert sitting.follow(app, False) == {"seated": at(0), "started": at(30), "ended": None}
    app.session = None
    clock.advance(30 * 60)
    sitting.follow(app, False)
    app.session = object()
    clock.advance((SITTING_GAP_S // 60 + 1) * 60)                   # left free too long
    assert sitting.follow(app, False)["seated"] == at(60 + SITTING_GAP_S // 60 + 1)
    assert first is not second


def test_the_language_comes_from_the_config_or_the_page():
    board = Board()
    board.receive(table_topic("t1", "state"), state())
    server = DashboardServer(board, "127.0.0.1", 0, token=None, language="fr").start()
    try:
        def get(path: str) -> dict:
            with urllib.request.urlopen(server.url + path, timeout=10) as reply:
                return json.loads(reply.read())
        assert get("state.json")["words"]["title"] == "Tables du café"
        assert get("state.json?lang=en")["words"]["title"] == "Café tables"
        assert get("state.json?lang=xx")["language"] == "fr"
        assert get("words.json?lang=en")["words"]["finished"] == "Finished today"
    finally:
        server.close()


# ---- in Chromium, with a real broker -----------------------------------------------------------

@pytest.fixture(scope="module")
def wall(shared_chromium):
    """One page at the wall screen's size for the module: each test opens its own address."""
    tab = Tab(shared_chromium, size=WALL)
    yield tab
    tab.close()


def test_the_wall_screen_in_both_languages_and_its_banner_while_the_broker_is_down(tmp_path, wall):
    with running_broker(tmp_path) as broker:
        board = Board()
        feed = dashboard_feed(broker, board)
        table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
        table.start("palourde", ["Ann", "Bob"])
        table.play(["tap clam#1", "tap clam#2", "wait 1"])
        server = DashboardServer(board, "127.0.0.1", 0, token="tide-3", language="fr").start()
        try:
            assert table.feed.wait_acknowledged(2, WAIT_S)
            version = settle_on(board, lambda v: any(t["state"] for t in v["tables"]))
            for url, words_seen in (("", ("Tables du café", "en jeu", "Palourde + Palourde")),
                                    ("?lang=en", ("Café tables", "playing", "Clam + Clam"))):
                wall.open(f"{server.url}{url}#token=tide-3")
                html = wall.page_at_version(version)
                assert all(word in html for word in words_seen), words_seen
                assert wall.run("return document.getElementById('banner').hidden") is True
            broker.stop()
            version = settle_on(board, lambda v: not v["broker"]["up"])
            wall.page_at_version(version)
            banner = wall.run("const b = document.getElementById('banner');"
                                 "return b.hidden ? null : b.innerText;")
            assert banner is not None and banner.startswith("No news from the\nbroker since ")
            broker.start()
            version = settle_on(board, lambda v: v["broker"]["up"])
            wall.page_at_version(version)
            assert wall.run("return document.getElementById('banner').hidden") is True
        finally:
            server.close()
            table.link.close(flush_s=0)
            feed.close(flush_s=0)


def settle_on(board: Board, ready) -> int:
    """The board's version once `ready(view)` holds; each look waits for the board to change."""
    for _ in range(1000):
        view = board.view()
        if ready(view):
            return view["version"]
        assert board.wait(view["version"], WAIT_S), f"the board never got there: {view}"
    raise AssertionError("the board kept changing without getting there")


def test_the_wall_screen_shows_the_days_leaderboard_and_the_tables_own_counts(wall):
    """What the page shows: wins per player over today's games, how long a game has lasted and
    how long people have sat by the table's count, a finished game's length by its seconds."""
    clocks = Clocks()
    board = clocks.board(KEY)
    seated = iso(EVENING - datetime.timedelta(hours=2))     # the wall-clock dates say 2 h: not used
    board.receive(table_topic("t1", "state"), board_state("t1", times={
        "seated": seated, "started": seated, "ended": None, "elapsed": 0}))
    clocks.mono += 3900
    board.receive(table_topic("t1", "state"), board_state("t1", times={
        "seated": seated, "started": iso(EVENING), "ended": None, "elapsed": 1500}))
    for table, winners, names in (("t1", ("Ann",), ("Ann", "Bob")), ("t2", ("Cy",), ("Bob", "Cy")),
                                  ("t1", ("Ann",), ("Ann", "Cy"))):
        board.receive(table_topic(table, "finished"), finished(table, winners=winners, names=names,
                                                               seconds=1500))
    server = DashboardServer(board, "127.0.0.1", 0, token=None, language="en").start()
    try:
        wall.open(server.url)
        wall.page_at_version(board.version)
        seen = wall.run("""
            const texts = (selector) => [...document.querySelectorAll(selector)]
              .map((node) => node.textContent);
            return {leaders: texts("#leaders .name"), wins: texts("#leaders .wins"),
                    title: document.querySelector("#leaderboard h2").textContent,
                    hidden: document.getElementById("leaderboard").hidden,
                    length: texts('[data-table="t1"] .length'),
                    at_table: texts('[data-table="t1"] .times'),
                    finished: texts("#finished .what")};""")
        assert (seen["title"], seen["hidden"]) == ("Wins today", False)
        assert list(zip(seen["leaders"], seen["wins"])) == [
            ("Ann", "2 wins"), ("Cy", "1 win"), ("Bob", "0 wins")]
        assert seen["length"] == ["25 min"] and seen["at_table"] == ["at the table 1 h 05"]
        assert all(" · 25 min · Palourde" in row for row in seen["finished"]), seen["finished"]
    finally:
        server.close()
