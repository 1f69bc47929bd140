"""An attacker on the café's broker, with loopback only and no key, on a real Mosquitto: each
attack is tried as it would be, and does nothing.

Replays of old signed lists, states, online flags and finished games; a signed deck moved
to another name; a table's own key signing for the café or for another table; a staff card
or a player card the café took back. The café's machine holds the admin key; each table
its own key; the dashboard the café's public key and the signed list of tables.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading

import pytest

from device.cli import main
from device.config import KioskConfig
from device.decks.registry import DeckRegistry
from device.fleet.backoffice.history import History
from device.fleet.dashboard.board import Board
from device.fleet.envelope import Signer, Trust
from device.fleet.freshness import Freshness
from device.fleet.link import Link, unique_id
from device.fleet.retained import fetch_retained, send_retained
from device.fleet.signing import ROLL_FILE, StaffRoll, staff_hash
from device.fleet.topics import SHARED_PLAYERS, SHARED_STAFF, table_topic
from device.inputs import Tapped
from device.kiosk.admin import AdminMenu
from device.kiosk.plugin import kiosk_plugins
from device.kiosk.system_actions import RecordedSystem
from device.players.roster import Roster
from tests.device.fleet_tables import (
    ADMIN_KEY,
    FLEET_KEY,
    SETTLE,
    CafeTable,
    a_deck,
    cafe_admin,
    enrolment,
    keyed_board,
    random_game_lines,
    settings_for,
    settle,
    shows,
    table_key,
)
from tests.device.mosquitto import running_broker

from .test_fleet import WAIT_S, config_file, dashboard_feed
from .test_fleet_flood import wait_heard
from .test_fleet_hostile import a_keyed_cafe_playing

SAM, KIM = "04000000000001", "04000000000002"
ANN_CARD = "04AA0000000001"


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


class Cafe:
    """The café's machine: its state dir holds the admin key; its commands publish."""

    def __init__(self, tmp_path, broker) -> None:
        self.dir = tmp_path / "cafe"
        cafe_admin(self.dir)
        self.registry = DeckRegistry(self.dir)
        self.args = ["--config", str(config_file(tmp_path, broker, "cafe")),
                     "--state-dir", str(self.dir)]

    def run(self, *command: str) -> None:
        assert main([*command, *self.args]) == 0, command


def kiosk_table(tmp_path, broker, name: str = "t1") -> CafeTable:
    table = CafeTable(tmp_path / name, name, settings_for(broker))
    table.app.attach(*kiosk_plugins(KioskConfig(enabled=True), RecordedSystem()))
    return table


def tap(table: CafeTable, uid: str) -> None:
    table.app.handle(Tapped(uid, table.app.registry.lookup(uid)))
    table.play(["wait 1"])
    if not isinstance(table.app.mode, AdminMenu):
        table.play([SETTLE])                              # what the tap said is read


def opens_admin(table: CafeTable, uid: str) -> bool:
    """A tap of `uid` opens the admin menu (and BACK closes it again)."""
    tap(table, uid)
    opened = isinstance(table.app.mode, AdminMenu)
    if opened:
        table.play(["press back", SETTLE])
    return opened


def wait_taken(table: CafeTable, ready) -> None:
    """Until `ready()` holds: each message heard, then a tick that takes the café's lists."""
    def looked() -> bool:
        table.play(["wait 1"])
        return ready()
    assert wait_heard(table, looked)


# ---- replays -----------------------------------------------------------------------------------

def test_a_replayed_staff_list_brings_back_no_card_the_cafe_took_back(tmp_path, broker, capsys):
    cafe = Cafe(tmp_path, broker)
    cafe.registry.add_staff(SAM, "Sam")
    cafe.registry.add_staff(KIM, "Kim")
    cafe.run("deck", "staff", "publish")
    old = fetch_retained(settings_for(broker), SHARED_STAFF)[SHARED_STAFF]   # needs no key
    table = kiosk_table(tmp_path, broker)
    wait_taken(table, lambda: table.inbox.next_offer(table.registry, "t1") is not None)
    table.play(["tap staff#1", SETTLE])                        # a staff tap imports both
    assert opens_admin(table, KIM) is False                    # its first tap enrols it...
    assert table.registry.staff() == {KIM: "Kim"} and opens_admin(table, KIM)   # ...then it opens
    cafe.run("deck", "staff", "remove", KIM)
    cafe.run("deck", "staff", "publish")
    wait_taken(table, lambda: KIM not in table.registry.staff())
    assert not opens_admin(table, KIM)                         # at once: taken back
    for retain in (True, False):                               # the old list, again
        table.heard.clear()
        send_retained(settings_for(broker), [(SHARED_STAFF, old)]) if retain else \
            publish_live(broker, SHARED_STAFF, old)
        assert table.heard.wait(WAIT_S)
        table.play(["wait 1"])
        assert KIM not in table.registry.staff() and not opens_admin(table, KIM)
        assert staff_hash(FLEET_KEY, KIM) not in StaffRoll(table.registry.state_dir).pending()
        assert table.screens[-1].header == "TABLETOP"            # nothing offered at idle
    here = ["--config", str(config_file(tmp_path, broker, "t1")), "--state-dir", str(tmp_path / "t1")]
    capsys.readouterr()
    assert main(["fleet", "shared", "--json", *here]) == 0    # the table's own view: not newer
    assert json.loads(capsys.readouterr().out)["staff"] == []
    assert main(["fleet", "import-staff", *here]) == 2
    assert KIM not in table.registry.staff() and not opens_admin(table, KIM)
    table.link.close(flush_s=0)


def publish_live(broker, topic: str, payload: bytes) -> None:
    """One message at QoS 1, not retained, acknowledged by the broker."""
    link = Link(settings_for(broker), unique_id("attacker")).start()
    assert link.wait_up(WAIT_S) and link.send_acked(topic, payload, WAIT_S)
    link.close(flush_s=0)


def test_an_old_roster_adds_back_no_player_the_cafe_took_back(tmp_path, broker):
    cafe = Cafe(tmp_path, broker)
    roster = Roster(cafe.dir)
    for name in ("Ann", "Bob"):
        assert main(["players", "add", name, "--state-dir", str(cafe.dir)]) == 0
    assert main(["players", "card", ANN_CARD, "Ann", "--state-dir", str(cafe.dir)]) == 0
    cafe.run("players", "publish")
    old = fetch_retained(settings_for(broker), SHARED_PLAYERS)[SHARED_PLAYERS]
    table = kiosk_table(tmp_path, broker)
    here = Roster(tmp_path / "t1")
    wait_taken(table, lambda: here.holder(ANN_CARD) is not None)
    roster.remove("Ann")
    cafe.run("players", "publish")
    wait_taken(table, lambda: [p.name for p in here.players()] == ["Bob"])
    table.heard.clear()
    send_retained(settings_for(broker), [(SHARED_PLAYERS, old)])
    assert table.heard.wait(WAIT_S)
    table.play(["wait 1"])
    assert [p.name for p in here.players()] == ["Bob"] and here.holder(ANN_CARD) is None
    table.link.close(flush_s=0)


def test_an_old_state_and_online_cannot_bring_a_gone_table_back(tmp_path, broker):
    board = keyed_board()
    feed, table = a_keyed_cafe_playing(tmp_path, broker, board)
    captured = fetch_retained(settings_for(broker), "tabletop/t1/#")   # playing, online
    assert set(captured) == {table_topic("t1", "state"), table_topic("t1", "online")}
    table.link.close()                                           # gone: online false, signed
    settle(board, lambda view: view["tables"][0]["online"] is False, WAIT_S, broker)
    refused = board.drops.count
    send_retained(settings_for(broker), list(captured.items()))
    publish_live(broker, table_topic("t1", "online"), captured[table_topic("t1", "online")])
    marker(board, broker, tmp_path)
    assert board.drops.count == refused + 2      # the state is its latest: a repeat
    (shown,) = board.view()["tables"]
    assert shown["online"] is False
    feed.close(flush_s=0)


def marker(board: Board, broker, tmp_path) -> None:
    """A new list of tables (t9 added), after everything sent before: once the board has it,
    it has heard all of that (the broker keeps the order)."""
    send_retained(settings_for(broker), [enrolment({
        "t1": table_key(tmp_path / "t1", "t1"), "t9": table_key(tmp_path / "t9", "t9")}, tmp_path)])
    settle(board, lambda view: "t9" in board.trust.tables, WAIT_S, broker)


class Spy:
    """An attacker's recorder: every message on `topic_filter`, as it came."""

    def __init__(self, broker, topic_filter: str) -> None:
        self.heard: list[tuple[str, bytes]] = []
        self.more = threading.Condition()
        self.link = Link(settings_for(broker), unique_id("attacker"),
                         subscriptions=(topic_filter,), on_message=self._heard).start()
        assert self.link.wait_up(WAIT_S)
        with self.link._progress:
            assert self.link._progress.wait_for(lambda: self.link.listening, WAIT_S)

    def _heard(self, topic: str, payload: bytes) -> None:
        with self.more:
            self.heard.append((topic, payload))
            self.more.notify_all()

    def wait(self, count: int) -> bool:
        with self.more:
            return self.more.wait_for(lambda: len(self.heard) >= count, WAIT_S)


def test_a_dashboard_restarted_counts_each_finished_game_once(tmp_path, broker):
    """Finished games recorded off the broker and replayed after the dashboard restarts (its
    counters and its counted games on disk) are no new wins; nor, counted by their id, when
    its counters are gone."""
    stores = tmp_path / "dashboard"

    def dashboard() -> Board:
        return Board(trust=Trust.of(ADMIN_KEY, Freshness.at(stores)),
                     counted=History.at(stores))
    spy = Spy(broker, "tabletop/+/finished")
    board = dashboard()
    feed = dashboard_feed(broker, board)
    send_retained(settings_for(broker), [enrolment({"t1": table_key(tmp_path / "t1", "t1")},
                                                   tmp_path)])
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    for _ in range(3):                                          # the players leave three results
        finish_quickly(table)
    settle(board, lambda view: len(view["finished"]) == 3, WAIT_S, broker)
    assert spy.wait(3)
    feed.close(flush_s=0)
    for store in (Freshness.at(stores), None):                  # restarted; then counters lost
        if store is None:
            (stores / "fleet-seen.sqlite").unlink()
        board = dashboard()
        feed = dashboard_feed(broker, board, "tabletop-dashboard-restarted")
        send_retained(settings_for(broker), spy.heard)          # the same bytes, replayed
        marker(board, broker, tmp_path)
        assert board.view()["finished"] == []
        feed.close(flush_s=0)
    table.link.close(flush_s=0)
    spy.link.close(flush_s=0)


def finish_quickly(table: CafeTable) -> None:
    """A game of Palourde to its end, its result left: the table sends it as finished."""
    table.start("palourde", ["Ann", "Bob"])
    table.play(random_game_lines(table.app, random.Random(3), 1000))
    while table.app.overlay is not None:
        table.play(["press back"])
    table.play(["press select", "wait 1"])


# ---- what is signed is what is used -----------------------------------------------------------

def test_a_signed_deck_moved_to_another_name_is_refused(tmp_path, broker, capsys):
    cafe = Cafe(tmp_path, broker)
    a_deck(cafe.registry, "cafe1")
    cafe.run("deck", "publish", "cafe1")
    signed = fetch_retained(settings_for(broker), "tabletop/shared/decks/cafe1")
    send_retained(settings_for(broker), [("tabletop/shared/decks/evil",
                                          signed["tabletop/shared/decks/cafe1"])])
    here = ["--config", str(config_file(tmp_path, broker, "t1")), "--state-dir", str(tmp_path / "t1")]
    capsys.readouterr()
    assert main(["fleet", "import-deck", "evil", *here]) == 2
    assert "no shared deck 'evil' (shared: cafe1)" in capsys.readouterr().err
    table = CafeTable(tmp_path / "t2", "t2", settings_for(broker))
    wait_heard(table, lambda: table.inbox.refused >= 1)
    assert table.inbox.next_offer(table.registry, "t2").name == "cafe1"
    table.link.close(flush_s=0)


# ---- one key each ------------------------------------------------------------------------------

def test_a_stolen_tables_key_signs_nothing_shared_and_is_struck_off(tmp_path, broker, capsys):
    cafe = Cafe(tmp_path, broker)
    keys_of = {name: table_key(tmp_path / name, name) for name in ("t1", "t2")}
    for name, public in keys_of.items():
        cafe.run("fleet", "enrol", name, public)
    board = keyed_board()
    feed = dashboard_feed(broker, board)
    tables = [CafeTable(tmp_path / name, name, settings_for(broker)) for name in keys_of]
    for table in tables:
        table.start("palourde", ["Ann", "Bob"])
        table.play(["tap clam#1", "tap clam#2", "wait 1"])
    settle(board, lambda view: all(shows(view, t) for t in tables), WAIT_S, broker)
    stolen = Signer.table(tmp_path / "t2", "t2")               # t2's SD card, in a thief's hands
    forged_staff = stolen.seal(SHARED_STAFF, {"table": "t2", "at": "now",
                                              "staff": {staff_hash(FLEET_KEY, KIM): "Mallory"}})
    forged_state = stolen.seal(table_topic("t1", "state"), {"table": "t1", "at": "now"})
    refused = tables[0].inbox.refused
    send_retained(settings_for(broker), [(SHARED_STAFF, forged_staff),
                                         (table_topic("t1", "state"), forged_state)])
    wait_heard(tables[0], lambda: tables[0].inbox.refused > refused)
    assert tables[0].inbox.next_offer(tables[0].registry, "t1") is None
    cafe.run("fleet", "strike", "t2")                          # struck off: its key counts no more
    capsys.readouterr()
    tables[1].play(["tap clam#3", "tap clam#4", "wait 1"])
    tables[0].play(["tap clam#3", "tap clam#4", "wait 1"])
    settle(board, lambda view: shows(view, tables[0]), WAIT_S, broker)
    assert [t["name"] for t in board.view()["tables"]] == ["t1"]   # t2 left the board at once
    assert board._tables["t2"]["seq"] == 2                  # and nothing it signed since counts
    for table in tables:
        table.link.close(flush_s=0)
    feed.close(flush_s=0)


# ---- from today's one-key fleet ---------------------------------------------------------------

def test_a_one_key_fleet_moves_to_the_admin_key_and_keeps_its_waiting_staff_cards(
        tmp_path, broker, capsys):
    """A table of the one-key fleet: `key` in its config, a staff card waiting for its first
    tap. The café makes its admin key, each table gets `admin_key` and makes its own key, the
    café enrols it and shares again. The HMAC-signed list still retained is refused; the
    waiting card still enrols at its first tap (its hash keeps the same tag key)."""
    old = {"schema": 1, "table": "table-a", "at": "now",
           "staff": {staff_hash(FLEET_KEY, SAM): "Sam"}}
    old_sig = hmac.new(FLEET_KEY.encode(), json.dumps(old, sort_keys=True, separators=(",", ":"))
                       .encode(), hashlib.sha256).hexdigest()
    send_retained(settings_for(broker), [(SHARED_STAFF, json.dumps({**old, "sig": old_sig}).encode())])
    state = tmp_path / "t1"
    state.mkdir()
    (state / ROLL_FILE).write_text(json.dumps({staff_hash(FLEET_KEY, SAM): "Sam"}))   # old format
    cafe_dir = tmp_path / "cafe"
    capsys.readouterr()
    assert main(["fleet", "keys", "--admin", "--state-dir", str(cafe_dir),
                 "--config", str(config_file(tmp_path, broker, "cafe"))]) == 0
    admin_line = capsys.readouterr().out.splitlines()[-1]
    admin_public = admin_line.split(": ")[1].split()[0]
    config = config_file(tmp_path, broker, "t1")
    config.write_text(config.read_text().replace(ADMIN_KEY, admin_public))
    assert main(["fleet", "keys", "--config", str(config), "--state-dir", str(state)]) == 0
    table_public = capsys.readouterr().out.split("Table t1: ")[1].split()[0]
    cafe_args = ["--config", str(config_file(tmp_path, broker, "cafe")), "--state-dir", str(cafe_dir)]
    assert main(["fleet", "enrol", "t1", table_public, *cafe_args]) == 0
    assert "Enrolled t1: 1 table" in capsys.readouterr().out
    here = ["--config", str(config), "--state-dir", str(state)]
    assert main(["fleet", "shared", "--json", *here]) == 0        # the HMAC list: refused
    assert json.loads(capsys.readouterr().out)["staff"] == []
    DeckRegistry(cafe_dir).add_staff(SAM, "Sam")
    DeckRegistry(cafe_dir).add_staff(KIM, "Kim")
    assert main(["deck", "staff", "publish", *cafe_args]) == 0
    assert main(["fleet", "import-staff", *here]) == 0
    registry = DeckRegistry(state)
    from device.fleet.shared import enrol_tapped
    assert enrol_tapped(registry, FLEET_KEY, SAM) == "Sam"     # waiting since the one-key days
    assert enrol_tapped(registry, FLEET_KEY, KIM) == "Kim"
    assert registry.staff() == {SAM: "Sam", KIM: "Kim"}


# ---- revocation on the table itself ------------------------------------------------------------

def test_deck_staff_remove_takes_a_card_still_waiting_for_its_first_tap(tmp_path, broker, capsys):
    cafe = Cafe(tmp_path, broker)
    cafe.registry.add_staff(KIM, "Kim")
    cafe.run("deck", "staff", "publish")
    here = ["--config", str(config_file(tmp_path, broker, "t1")), "--state-dir", str(tmp_path / "t1")]
    assert main(["fleet", "import-staff", *here]) == 0
    assert StaffRoll(tmp_path / "t1").pending() == {staff_hash(FLEET_KEY, KIM): "Kim"}
    capsys.readouterr()
    assert main(["deck", "staff", "remove", KIM, *here]) == 0
    assert StaffRoll(tmp_path / "t1").pending() == {}
    assert main(["deck", "staff", "remove", KIM, *here]) == 2
    assert "is not a staff card" in capsys.readouterr().err


# ---- hostile files on the broker -------------------------------------------------------------

def test_a_nested_roster_signed_on_the_broker_crashes_no_command(tmp_path, broker, capsys):
    """Even signed by the café (a mistake, or a stolen admin key), a roster nested 3,000 deep
    is refused in one line by every command that reads what the café shares."""
    cafe = Cafe(tmp_path, broker)
    a_deck(cafe.registry, "cafe1")
    cafe.run("deck", "publish", "cafe1")
    nested = "a = " + "[" * 3000 + "]" * 3000 + "\n"
    signer = cafe_admin(tmp_path / "cafe")
    send_retained(settings_for(broker), [(SHARED_PLAYERS, signer.seal(
        SHARED_PLAYERS, {"table": "cafe", "at": "now", "roster": nested}))])
    here = ["--config", str(config_file(tmp_path, broker, "t1")), "--state-dir", str(tmp_path / "t1")]
    capsys.readouterr()
    for command, code in ((["fleet", "shared"], 0), (["fleet", "import-staff"], 2),
                          (["fleet", "import-deck", "cafe1"], 0)):
        assert main([*command, *here]) == code, command
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err and "RecursionError" not in out + err
    assert DeckRegistry(tmp_path / "t1").info("cafe1").complete
    assert not (tmp_path / "t1" / "players.toml").exists()
