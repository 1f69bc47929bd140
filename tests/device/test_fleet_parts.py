"""The fleet's parts without a broker: outbox, board, topics, config, plugin, offers, web server."""
from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request

import pytest

from device.config import ConfigFileError, FleetConfig, example_config, parse_config
from device.decks.registry import DeckRegistry
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.envelope import Refused, Signer
from device.fleet.journal_feed import JournalFeed, journals, pending
from device.fleet.link import FleetUnavailable
from device.fleet.outbox import Outbox
from device.fleet.plugin import FleetPlugin, open_fleet
from device.fleet.shared import deck_message, read_shared, staff_message
from device.fleet.topics import decode, encode, shared_deck_of, table_of, table_topic
from device.inputs import Tapped
from device.kiosk.plugin import Attract
from device.ui.screen import COLUMNS
from tests.device.fleet_tables import (
    FLEET_KEY,
    SETTLE,
    CafeTable,
    a_deck,
    admin_signer,
    cafe_inbox,
    random_game_lines,
    table_signer,
)
from tests.device.mosquitto import free_port


class FakeLink:
    """What the plugin and the journal feed see of a link: publish, an acknowledged send,
    whether it is up, and whether the broker refused us."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict | bytes, bool]] = []
        self.refused: str | None = None
        self.offline: str | None = None
        self.unreachable: str | None = None
        self.up = threading.Event()
        self.up.set()

    def send_acked(self, topic: str, payload: bytes, timeout: float) -> bool:
        self.publish(topic, payload)
        return True

    def check(self) -> None:
        pass

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.sent.append((topic, decode(payload) or payload, retain))

    def of(self, kind: str) -> list[dict]:
        return [payload for topic, payload, _ in self.sent if topic.endswith("/" + kind)]

    def close(self) -> bool:
        return True


def fake_table(tmp_path, name="t1") -> tuple[CafeTable, FakeLink]:
    table, link = CafeTable(tmp_path / name, name, None), FakeLink()
    table.inbox = cafe_inbox(tmp_path / name)
    table.plugin = FleetPlugin(link, name, lambda: "2030-01-02T20:15:00+01:00", table.inbox,
                               table.registry, signer=table_signer(name))
    table.app.attach(table.plugin)
    return table, link


# ---- outbox, board, topics, config -------------------------------------------------------------

def test_outbox_keeps_the_newest_events_and_the_latest_retained_value():
    box = Outbox(limit=3)
    for n in range(5):
        box.put("tabletop/t/events", str(n).encode())
        box.put("tabletop/t/state", f"s{n}".encode(), retain=True)
    taken = [box.take(timeout=0) for _ in range(len(box))]
    assert taken == [("tabletop/t/state", b"s4", True)] + \
        [("tabletop/t/events", str(n).encode(), False) for n in (2, 3, 4)]
    assert box.dropped == 2 and box.take(timeout=0) is None
    box.give_back(taken[1])
    assert box.take(timeout=0) == taken[1]


def test_board_counts_missed_events_ignores_repeats_and_keeps_todays_games():
    days = iter(["2030-01-01", "2030-01-02"])            # each game as the dashboard receives it
    received = "2030-01-01"
    board = Board(day=lambda: received, clock=lambda: "2030-01-02T23:00:00+01:00")
    events = table_topic("t1", "events")

    def event(game: str, started: str, seq: int) -> bytes:
        return encode({"table": "t1", "game_id": game, "started": started, "seq": seq,
                       "op": "event"})
    for seq in (1, 2, 2, 5, 3):                           # 2 came twice (QoS 1), 3 and 4 lost
        board.receive(events, event("g1", "2030-01-02T20:00:00+01:00", seq))
    for day in days:
        received = day
        board.receive(table_topic("t1", "finished"), encode({
            "table": "t1", "at": f"{day}T20:00:00+01:00", "game": "palourde", "title": "Palourde",
            "players": [{"name": "Ann", "score": 1}], "winners": ["Ann"]}))
    board.receive(table_topic("t1", "online"), b"true")
    board.receive("tabletop/shared/staff", b"{}")          # not a table's topic
    board.receive(table_topic("t1", "state"), b"not json")
    (table,) = board.view()["tables"]
    assert (table["seq"], table["missed"], table["online"]) == (5, 2, True)
    assert table["last_event"]["seq"] == 5 and table["state"] is None
    assert [g["at"][:10] for g in board.view()["finished"]] == ["2030-01-02"]
    board.receive(events, event("g2", "2030-01-02T21:00:00+01:00", 1))   # the next game
    board.receive(events, event("g0", "2030-01-02T19:00:00+01:00", 9))   # an older one's, late
    assert (board.view()["tables"][0]["seq"], board.view()["tables"][0]["game_id"]) == (1, "g2")


def test_topics_name_tables_and_shared_decks():
    assert table_of("tabletop/table-3/state") == ("table-3", "state")
    assert table_of("tabletop/shared/state") is None and table_of("tabletop/t/x") is None
    assert shared_deck_of("tabletop/shared/decks/cafe2") == "cafe2"
    assert shared_deck_of("tabletop/shared/decks/a/b") is None
    assert decode(json.dumps({"schema": 99}).encode()) is None and decode(b"\xff") is None


def test_fleet_config_names_the_key_at_fault():
    assert parse_config(example_config()).fleet == FleetConfig()
    for text, key in (('table = "a/b"', "fleet.table"), ('table = "shared"', "fleet.table"),
                      ('ca_file = "ca.pem"', "fleet.ca_file"), ("port = 0", "fleet.port"),
                      ("tls_insecure = true", "fleet.tls_insecure"), ("hots = 1", "fleet.hots")):
        with pytest.raises(ConfigFileError, match=key):
            parse_config(f"[fleet]\n{text}\n")
    assert parse_config('[fleet]\ntls = true\nca_file = "ca.pem"\n').fleet.ca_file.name == "ca.pem"


def test_an_old_config_with_buffer_events_starts_and_check_says_it_can_go(tmp_path, capsys):
    """Events leave from the journal now: the key does nothing, and says so once."""
    from device.cli import main
    old = tmp_path / "old.toml"
    old.write_text("[fleet]\nbuffer_events = 500\n")
    assert parse_config(old.read_text()).fleet == FleetConfig()
    assert main(["config", "--check", str(old)]) == 0
    err = capsys.readouterr().err
    assert err == (f"tabletop: {old}: fleet.buffer_events: no longer used (events now leave "
                   "from the journal); remove it\n")
    assert "buffer_events" not in example_config()


# ---- the plugin --------------------------------------------------------------------------------

def test_each_accepted_event_then_an_undo_then_one_finished_game(tmp_path):
    table, link = fake_table(tmp_path)
    table.start("palourde", ["Ann", "Bob"])
    table.play(["tap clam#1", "tap clam#2", SETTLE, "tap crab#9", SETTLE, "press back",
                "hold back", "press select", SETTLE])
    assert not link.of("events")                            # nothing queued in memory
    feed = JournalFeed(link, "t1", tmp_path / "t1", lambda: "now")
    assert feed.send_pending() == 3                         # from the journal
    events = link.of("events")
    assert [(e["seq"], e["op"], e["event"]) for e in events] == \
        [(1, "event", {"type": "tap", "card": "clam#1"}),
         (2, "event", {"type": "tap", "card": "clam#2"}), (3, "undo", None)]
    assert len({e["game_id"] for e in events}) == 1 and events[1]["table"] == "t1"
    assert feed.send_pending() == 0                         # acknowledged: never again
    assert JournalFeed(link, "t1", tmp_path / "t1", lambda: "now").send_pending() == 0
    table.play(random_game_lines(table.app, random.Random(3), 1000))
    (finished,) = link.of("finished")                       # as it ended: the result on screen
    assert finished["game"] == "palourde" and finished["winners"]
    assert finished["game_id"] == events[0]["game_id"]
    table.play(["press select", SETTLE, "wait 1"])
    assert len(link.of("finished")) == 1                    # SELECT only starts the next thing
    states = link.of("state")
    assert {s["activity"] for s in states} == {"playing", "over", "idle"}
    assert all(retain for topic, _, retain in link.sent if topic.endswith("/state"))


def test_the_kiosk_attract_screen_is_its_own_activity(tmp_path):
    table, link = fake_table(tmp_path)
    table.start("palourde", ["Ann", "Bob"])
    table.app.set_mode(Attract())
    table.play(["wait 1"])
    assert link.of("state")[-1]["activity"] == "attract"


def test_a_refused_broker_is_a_fault_on_the_table(tmp_path):
    table, link = fake_table(tmp_path)
    link.refused = "127.0.0.1:1883 refused us: Not authorized"
    table.play(["wait 1"])
    assert table.screens[-1].header_right == "Fleet refused"
    link.refused = None
    table.play(["wait 1"])
    assert table.screens[-1].header_right != "Fleet refused"


def test_a_table_plays_the_same_with_the_broker_gone(tmp_path):
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed (extra: fleet)")
    settings = FleetConfig(enabled=True, host="127.0.0.1", port=free_port())
    away = CafeTable(tmp_path / "away", "away", settings)
    alone = CafeTable(tmp_path / "alone", "alone", None)
    for table in (away, alone):
        table.start("palourde", ["Ann", "Bob"])
        table.play(random_game_lines(table.app, random.Random(5), 1000))
    assert away.screens == alone.screens and away.view() == alone.view()
    away.link.close(flush_s=0)
    outbox = away.link.outbox
    kept = [outbox.take(timeout=0) for _ in range(len(outbox))]
    assert [topic for topic, _, _ in kept] == ["tabletop/away/state", "tabletop/away/online"]
    waiting = list(pending(journals(tmp_path / "away"), away.feed.cursor.done))
    assert [seq for _, seq, _, _ in waiting] == list(range(1, away.plugin.seq + 1))


# ---- shared decks and staff cards on the table ---------------------------------------------------

def test_offers_come_at_idle_once_and_only_what_the_table_lacks(tmp_path):
    table, _ = fake_table(tmp_path)
    cafe = admin_signer(tmp_path / "cafe")
    elsewhere = DeckRegistry(tmp_path / "elsewhere")
    a_deck(elsewhere, "cafe4")
    elsewhere.add_staff("04AABBCCDD0011", "Morgane")
    a_deck(table.registry, "cafe3")
    table.inbox.receive(*deck_message(table.registry, "cafe3", "t2", "now", cafe))  # it has it
    table.play(["wait 1"])
    assert table.screens[-1].header == "TABLETOP"
    table.inbox.receive(*deck_message(elsewhere, "cafe4", "t2", "now", cafe))
    table.inbox.receive(*staff_message(elsewhere, "t2", "now", FLEET_KEY, cafe))
    table.play(["wait 1"])
    assert "New deck cafe4 (59 cards) from t2" in " ".join(table.screens[-1].lines)
    table.play(["press back", "wait 1"])                      # not now: the staff list comes next
    offered = " ".join(table.screens[-1].lines)
    assert "1 staff card from t2" in offered and "Morgane" in offered
    table.play(["tap staff#2", SETTLE, "wait 1"])
    assert "04AABBCCDD0011" not in table.registry.staff()      # on the roll until first tapped
    table.app.handle(Tapped("04AABBCCDD0011", None))
    assert table.registry.staff()["04AABBCCDD0011"] == "Morgane"
    assert table.screens[-1].header == "TABLETOP"             # the declined deck stays declined


def test_shared_payloads_that_do_not_check_are_refused(tmp_path):
    trust = cafe_inbox(tmp_path).trust
    cafe = admin_signer(tmp_path / "cafe")
    for topic, payload in (("tabletop/shared/decks/x", cafe.seal("tabletop/shared/decks/x", {
            "table": "t", "deck": "x", "text": "nonsense ["})),
            ("tabletop/shared/staff", cafe.seal("tabletop/shared/staff", {"table": "t", "staff": []})),
            ("tabletop/shared/staff", b"")):
        with pytest.raises(Refused):
            read_shared(topic, payload, trust)


def test_shared_data_counts_only_when_signed_with_the_cafes_admin_key(tmp_path):
    here = DeckRegistry(tmp_path / "here")
    here.add_staff("04AABBCCDD0011", "Morgane")
    a_deck(here, "cafe5")
    cafe = admin_signer(tmp_path / "cafe")
    trust = cafe_inbox(tmp_path / "t1").trust
    topic, payload = staff_message(here, "t2", "now", FLEET_KEY, cafe)
    assert b"04AABBCCDD0011" not in payload                    # keyed hashes, never raw UIDs
    assert read_shared(topic, payload, trust)[0].cards[0][1] == "Morgane"
    table = Signer.table(tmp_path / "t2", "t2")                # a table's own key: not the café's
    forged = {**decode(payload), "staff": {"00": "Mallory"}}
    unsigned = {k: v for k, v in decode(payload).items() if k != "sig"}
    for made, why in ((json.dumps(forged).encode(), "badly signed"),
                      (json.dumps(unsigned).encode(), "badly signed"),
                      (table.seal(topic, {"table": "t2", "staff": {"00": "Mallory"}}),
                       "not signed by the café's admin key")):
        with pytest.raises(Refused, match=why):
            read_shared(topic, made, trust)
    with pytest.raises(Refused, match="no admin key"):
        read_shared(topic, payload, cafe_inbox(tmp_path / "t3").trust.__class__(None))
    deck_topic, deck = deck_message(here, "cafe5", "t2", "now", cafe)
    assert read_shared(deck_topic, deck, trust)[0].name == "cafe5"
    with pytest.raises(Refused, match="another topic"):
        read_shared("tabletop/shared/decks/evil", deck, trust)
    with pytest.raises(ValueError, match="tag key"):
        staff_message(here, "t2", "now", None, cafe)


def test_open_fleet_only_when_enabled_and_paho_present(tmp_path, monkeypatch):
    config = parse_config("")
    assert open_fleet(config, tmp_path, lambda: "now") is None

    def missing():
        raise FleetUnavailable("the fleet needs paho-mqtt")
    monkeypatch.setattr("device.fleet.link.mqtt_client", missing)
    enabled = parse_config("[fleet]\nenabled = true\n")
    assert open_fleet(enabled, tmp_path, lambda: "now") is None


# ---- the web server ------------------------------------------------------------------------------

def get(url: str, **headers) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.headers["Content-Type"], reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def test_dashboard_serves_the_page_and_guards_the_data_with_its_token():
    board = Board()
    board.receive(table_topic("t1", "online"), b"true")
    server = DashboardServer(board, "127.0.0.1", 0, token="tide-3").start()
    try:
        assert get(server.url)[:2] == (200, "text/html; charset=utf-8")
        assert get(server.url + "app.js")[0] == 200 and get(server.url + "nope")[0] == 404
        assert get(server.url + "state.json")[0] == 403
        assert get(server.url + "state.json?token=tide-3")[0] == 403      # a header, only
        assert get(server.url + "state.json", Authorization="Bearer tide-2")[0] == 403
        assert get(server.url + "state.json", Authorization="Basic tide-3")[0] == 403
        status, _, body = get(server.url + "state.json", Authorization="Bearer tide-3")
        assert status == 200 and json.loads(body)["tables"][0]["name"] == "t1"
        events = urllib.request.Request(server.url + "events",
                                        headers={"Authorization": "Bearer tide-3"})
        with urllib.request.urlopen(events, timeout=10) as stream:
            assert stream.headers["Content-Type"] == "text/event-stream"
            first = stream.readline()
            assert json.loads(first.removeprefix(b"data: "))["tables"][0]["online"] is True
        post = urllib.request.Request(server.url + "state.json", data=b"x", method="POST")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(post, timeout=10)
    finally:
        server.close()


def test_dashboard_needs_a_token_beyond_loopback(capsys):
    with pytest.raises(ValueError, match="token"):
        DashboardServer(Board(), "0.0.0.0", 0, token=None)
    from device.cli import main
    assert main(["dashboard", "--host", "192.0.2.1"]) == 2
    assert "not a loopback address" in capsys.readouterr().err


@pytest.mark.parametrize("count", [2, 12])
def test_the_import_offer_pages_through_every_name_it_imports(tmp_path, count):
    """A staff list of 12 names: DOWN pages through all of them, each whole, then the tap's
    invitation; with 2 names the invitation is on the screen too, not cut."""
    table, _ = fake_table(tmp_path)
    there = DeckRegistry(tmp_path / "there")
    names = [f"Staffer{n:02d}" for n in range(count)]
    for n, name in enumerate(names):
        there.add_staff(f"04{n:012X}", name)
    table.inbox.receive(*staff_message(there, "t2", "now", FLEET_KEY,
                                       admin_signer(tmp_path / "cafe")))
    table.play(["wait 1"])
    read: list[str] = []
    for _ in range(count):                               # more presses than pages
        screen = table.screens[-1]
        assert screen.lines[-1] == "BACK: not now"
        assert all(len(line) < COLUMNS for line in screen.lines[:-1])   # whole beside a mark
        read += [line for line in screen.lines[:-1] if line not in read]
        table.play(["press down", "wait 1"])
    text = " ".join(read)
    assert all(name in text for name in names) and "Tap a staff card to import" in text
    table.play(["press up"] * count + ["wait 1"])
    assert table.screens[-1].lines[0] == f"{count} staff cards from"      # back to the top


def test_a_staff_card_the_cafe_names_again_opens_the_menu_again(tmp_path):
    """Taken back by one list, named again by the next (the same cards as an earlier list,
    in a new message): a staff card again."""
    from device.fleet.shared import revoked_staff
    table, _ = fake_table(tmp_path)
    cafe = admin_signer(tmp_path / "cafe")
    both, one = DeckRegistry(tmp_path / "both"), DeckRegistry(tmp_path / "one")
    for registry, cards in ((both, ("Sam", "Kim")), (one, ("Sam",))):
        for n, label in enumerate(cards, 1):
            registry.add_staff(f"04{n:012X}", label)
    kim = "04000000000002"
    for registry, revoked in ((both, False), (one, True), (both, False)):
        table.inbox.receive(*staff_message(registry, "cafe", "now", FLEET_KEY, cafe))
        table.play(["wait 1"])                              # a tick takes the café's word
        assert revoked_staff(table.registry, FLEET_KEY, kim) is revoked
