"""The fleet against hostile broker clients and a hostile sandbox, on a real Mosquitto.

Any client of the café's broker can publish anything on any topic: a deeply nested JSON
message (which used to kill the reading thread, again at every reconnect since the
broker keeps retained ones) or a forged staff list. A table whose network the sandbox
takes away entirely still plays, and says "Fleet offline".
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main
from device.decks.registry import DeckRegistry
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.feed import subscribe
from device.fleet.envelope import Signer
from device.fleet.retained import fetch_retained, send_retained
from device.fleet.shared import deck_message, staff_message
from device.fleet.topics import SCHEMA, encode, table_topic
from tests.device.fleet_tables import (
    FLEET_KEY,
    CafeTable,
    a_deck,
    admin_signer,
    cafe_inbox,
    enrolment,
    keyed_board,
    random_game_lines,
    settings_for,
    settle,
    shows,
    table_key,
)
from tests.device.mosquitto import PASSWORD, USER, Broker, running_broker
from tests.device.test_fleet import WAIT_S, dashboard_feed

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py

ROOT = Path(__file__).resolve().parents[2]
NESTED = b'{"schema": 1, "a": ' + b"[" * 50000 + b"]" * 50000 + b"}"
SHALLOW_BUT_DEEP = json.dumps({"schema": SCHEMA, "table": "t", "x": [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]})


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


def every_topic(table: str) -> list[str]:
    kinds = ("online", "state", "events", "finished")
    return [f"tabletop/{name}/{kind}" for name in (table, "evil") for kind in kinds] + \
        ["tabletop/shared/staff", "tabletop/shared/decks/cafe9", "tabletop/sync/x", "tabletop/x"]


def test_nested_messages_on_every_topic_leave_tables_and_dashboard_working(tmp_path, broker):
    settings = settings_for(broker)
    topics = every_topic("t1")
    send_retained(settings, [(t, NESTED) for t in topics])     # re-delivered at each subscribe
    board = Board()
    feed = dashboard_feed(broker, board)
    tables = [CafeTable(tmp_path / f"t{n}", f"t{n}", settings) for n in (1, 2)]
    for table in tables:
        assert table.link.wait_up(WAIT_S)
    send_retained(settings, [(t, SHALLOW_BUT_DEEP.encode()) for t in topics])
    for n, table in enumerate(tables):
        table.start("palourde", ["Ann", "Bob"])
        table.play(random_game_lines(table.app, random.Random(n), 6))
    settle(board, lambda view: all(shows(view, t) for t in tables), WAIT_S, broker)
    assert feed.up.is_set() and all(t.link.up.is_set() and t.link.fault is None for t in tables)
    assert "evil" not in {t["name"] for t in board.view()["tables"]}     # nothing it sent fits
    here = DeckRegistry(tmp_path / "here")                    # the tables still hear the café
    a_deck(here, "cafe8")
    tables[0].heard.clear()
    send_retained(settings, [deck_message(here, "cafe8", "t9", "now", admin_signer(tmp_path))])
    assert tables[0].heard.wait(WAIT_S)
    assert tables[0].inbox.next_offer(tables[0].registry, "t1").name == "cafe8"
    for table in tables:
        table.link.close(flush_s=0)
    feed.close(flush_s=0)


def test_a_forged_staff_list_is_refused(tmp_path, broker, caplog):
    settings = settings_for(broker)
    forger = DeckRegistry(tmp_path / "forger")
    forger.add_staff("04DEADBEEF0001", "Mallory")
    a_table = Signer.table(tmp_path / "t9", "t9")            # a stolen table's key: not the café's
    forged = [staff_message(forger, "t9", "now", FLEET_KEY, a_table)]
    topic, signed = staff_message(forger, "t9", "now", FLEET_KEY, admin_signer(tmp_path))
    unsigned = {k: v for k, v in json.loads(signed).items()
                if k not in ("sig", "publisher", "counter", "topic")}
    table = CafeTable(tmp_path / "t1", "t1", settings)
    assert table.link.wait_up(WAIT_S)
    for message in (forged[0], (topic, json.dumps(unsigned).encode())):
        table.heard.clear()
        send_retained(settings, [message])
        assert table.heard.wait(WAIT_S)
        assert table.inbox.next_offer(table.registry, "t1") is None
    table.play(["wait 1"])
    assert table.screens[-1].header == "TABLETOP" and not table.registry.staff()
    refusals = [r.message for r in caplog.records if "refused the shared data" in r.message]
    assert refusals == ["fleet: refused the shared data on tabletop/shared/staff: shared data "
                        "not signed by the café's admin key",
                        "fleet: refused the shared data on tabletop/shared/staff: unsigned"]
    table.link.close(flush_s=0)


def test_a_table_without_any_network_plays_and_says_fleet_offline(tmp_path):
    """In a network namespace of its own (as a strict sandbox leaves it), paho cannot even
    make its socket pair: the table plays on and shows why."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rn", "true"]).returncode != 0:
        pytest.skip("unshare -rn is not available here (user namespaces)")
    config = tmp_path / "table.toml"
    config.write_text(f'[fleet]\nenabled = true\nhost = "127.0.0.1"\nport = 1883\n'
                      f'username = "{USER}"\npassword = "{PASSWORD}"\ntable = "t1"\n')
    run = subprocess.run([unshare, "-rn", sys.executable, "-m", "device.cli", "run", "--sim",
                          "--config", str(config), "--state-dir", str(tmp_path / "s"),
                          "--game", "palourde", "--players", "Ann,Bob"],
                         input="tap clam#1\ntap clam#2\nwait 1\n", capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert "fleet offline: OSError: [Errno 101] Network is unreachable" in run.stderr
    assert "♪ turn" in run.stderr                             # the taps were played


def test_a_link_that_cannot_start_shows_fleet_offline_on_the_table(tmp_path, monkeypatch):
    import paho.mqtt.client as paho

    def refused():
        raise OSError(97, "Address family not supported by protocol")
    monkeypatch.setattr(paho, "_socketpair_compat", refused)
    table = CafeTable(tmp_path / "t1", "t1", settings_for_nowhere())
    assert table.link.offline == "OSError: [Errno 97] Address family not supported by protocol"
    table.start("palourde", ["Ann", "Bob"])
    table.play(["tap clam#1", "tap clam#2", "wait 1"])
    assert table.screens[-1].header_right == "Fleet offline"
    assert [p["score"] for p in table.view()["players"]] == [2, 0]
    assert table.link.close(flush_s=0) is False


def test_a_tls_failure_is_named_as_one(tmp_path):
    import ssl

    from device.fleet.link import failure
    assert failure(ssl.SSLCertVerificationError(1, "certificate verify failed")).startswith(
        "TLS failure: ")


def settings_for_nowhere():
    from device.config import FleetConfig
    return FleetConfig(enabled=True, host="127.0.0.1", port=1, key=FLEET_KEY)


def test_under_the_generated_acl_each_table_writes_only_its_own_topics(tmp_path, capsys):
    """`tabletop fleet acl` on a real Mosquitto: another table's account (even one holding the
    café's key) cannot write a table's state or online, nor share staff cards; the owner can."""
    broker = Broker(tmp_path)
    for user in ("table-1", "table-2", "cafe-admin", "dashboard"):
        broker.add_user(user, PASSWORD)
    assert main(["fleet", "acl", "table-1", "table-2"]) == 0
    broker.use_acl(capsys.readouterr().out)
    broker.start()
    board = keyed_board()
    try:
        def account(user: str):
            return settings_for(broker, username=user)
        feed = subscribe(account("dashboard"), board, "tabletop-dashboard-acl")
        assert feed.wait_up(WAIT_S)
        send_retained(account("cafe-admin"), [
            enrolment({"table-1": table_key(tmp_path / "t1", "table-1")}, tmp_path)])
        table = CafeTable(tmp_path / "t1", "table-1", account("table-1"))
        cafe = admin_signer(tmp_path)
        table.start("palourde", ["Ann", "Bob"])
        table.play(["tap clam#1", "tap clam#2", "wait 1"])
        settle(board, lambda view: shows(view, table), WAIT_S, broker)
        retained = fetch_retained(account("cafe-admin"), "tabletop/#")
        forger = DeckRegistry(tmp_path / "forger")
        forger.add_staff("04DEADBEEF0001", "Mallory")
        forged_state = Signer.table(tmp_path / "t2", "table-2").seal(
            table_topic("table-1", "state"),
            {"table": "table-1", "at": "now", "activity": "idle", "faults": {}, "game": None})
        send_retained(account("table-2"), [
            (table_topic("table-1", "state"), forged_state), (table_topic("table-1", "online"), b"false"),
            staff_message(forger, "table-2", "now", FLEET_KEY, cafe)])
        send_retained(account("dashboard"), [(table_topic("table-9", "state"), forged_state)])
        assert fetch_retained(account("cafe-admin"), "tabletop/#") == retained
        send_retained(account("cafe-admin"), [staff_message(forger, "table-1", "now", FLEET_KEY, cafe)])
        assert "tabletop/shared/staff" in fetch_retained(account("table-2"), "tabletop/shared/#")
        (shown,) = board.view()["tables"]
        assert shown["name"] == "table-1" and shown["online"] is True and shows(board.view(), table)
        table.link.close(flush_s=0)
        feed.close(flush_s=0)
    finally:
        broker.stop()


def a_keyed_cafe_playing(tmp_path, broker, board: Board):
    """A keyed dashboard's feed and an enrolled table t1 two flips into Palourde, shown on it."""
    feed = dashboard_feed(broker, board)
    send_retained(settings_for(broker), [enrolment({"t1": table_key(tmp_path / "t1", "t1")},
                                                   tmp_path)])
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    table.start("palourde", ["Ann", "Bob"])
    table.play(["tap clam#1", "tap clam#2", "wait 1"])
    settle(board, lambda view: shows(view, table), WAIT_S, broker)
    return feed, table


def test_with_the_key_the_dashboard_keeps_a_table_whose_state_is_forged_on_the_broker(tmp_path, broker):
    """No access list: anyone overwrites table t1's retained state; unsigned, signed by another
    key or replayed, it changes nothing."""
    board = keyed_board()
    feed, table = a_keyed_cafe_playing(tmp_path, broker, board)
    forged = {"table": "t1", "at": "2030-01-02T20:15:00+01:00", "activity": "idle", "faults": {},
              "game": None}
    version, refused = board.view()["version"], board.drops.count
    guessed = Signer.table(tmp_path / "t9", "t1")             # a key the café never enrolled
    send_retained(settings_for(broker), [(table_topic("t1", "state"), encode(forged))])
    send_retained(settings_for(broker), [(table_topic("t1", "state"),
                                          guessed.seal(table_topic("t1", "state"), forged)),
                                         (table_topic("t9", "state"), encode(forged))])
    send_retained(settings_for(broker), [(table_topic("t1", "online"), b"true")])  # unsigned
    table.play(["tap clam#3", "tap clam#4", "wait 1"])      # the table's own, after them all
    settle(board, lambda view: shows(view, table), WAIT_S, broker)
    assert board.drops.count == refused + 4 and board.view()["version"] > version
    assert [t["name"] for t in board.view()["tables"]] == ["t1"] and shows(board.view(), table)
    table.link.close(flush_s=0)
    feed.close(flush_s=0)


def test_the_acl_refuses_names_it_cannot_hold(capsys):
    for bad in (["table 1"], ["①"], ["shared"], ["t1", "t1"], ["t1", "--admin", "a\nuser t2"]):
        assert main(["fleet", "acl", *bad]) == 2, bad
        assert capsys.readouterr().err.count("\n") == 1


def test_a_flood_of_refused_shared_messages_is_counted_and_logged_a_few_lines_a_minute(tmp_path):
    """10,000 forged staff lists: each counted, the table's log written at most HUSH_LINES
    times in a minute, and the next minute's first line says how many were held back."""
    import io
    import logging

    from device.cli.logs import HUSH_LINES, Hush
    now = [0.0]
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(Hush(clock=lambda: now[0]))
    logging.getLogger().addHandler(handler)
    try:
        inbox = cafe_inbox(tmp_path)

        def forged(n: int) -> bytes:                        # each one different
            return json.dumps({"schema": SCHEMA, "table": "t9", "staff": {f"{n:x}": "Mallory"},
                               "sig": "00"}).encode()
        for n in range(10_000):
            now[0] = n * 0.001                             # ten seconds of flood
            inbox.receive("tabletop/shared/staff", forged(n))
        for _ in range(1000):                              # the same one, again and again
            inbox.receive("tabletop/shared/staff", forged(n))
        assert inbox.refused == 11_000
        assert out.getvalue().count("\n") == HUSH_LINES
        now[0] = 61.0
        inbox.receive("tabletop/shared/staff", forged(-1))
        last = out.getvalue().splitlines()[-1]
        assert last.endswith(f"(and {10_000 - HUSH_LINES} more like it, not written)")
    finally:
        logging.getLogger().removeHandler(handler)
