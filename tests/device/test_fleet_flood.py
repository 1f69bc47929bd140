"""A flood on the shared topics, on a real Mosquitto: the table stops listening, and comes back.

Any client of the café's broker can flood tabletop/shared/ with forged messages; reading
them all took the table's loop its processor. Past the floodgate's bound the link leaves
the subscription (the broker stops sending), says so in one line, and subscribes again
after a pause on the table's clock, here the simulator's virtual one: `wait 61` ends it.
"""
from __future__ import annotations

import json
import logging
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.decks.registry import DeckRegistry
from device.fleet.floodgate import (
    BOUND,
    CALM_S,
    DROP,
    FLOOD,
    PASS,
    PAUSE_S,
    WINDOW_S,
    Floodgate,
)
from device.fleet.link import mqtt_client, unique_id
from device.fleet.retained import send_retained
from device.fleet.shared import deck_message, staff_message
from device.fleet.topics import SCHEMA, SHARED_STAFF, sync_topic
from tests.device.fleet_tables import FLEET_KEY, CafeTable, a_deck, admin_signer, settings_for
from tests.device.mosquitto import PASSWORD, USER, running_broker

WAIT_S = 30.0                 # bounds a failure only
AFTER = 2000                  # forged messages the broker takes after the table left
FORGED = json.dumps({"schema": SCHEMA, "table": "t9", "staff": {"00": "Mallory"},
                     "sig": "00"}).encode()
FIRST, LONGEST = PAUSE_S


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


# ---- the bound, alone --------------------------------------------------------------------------

class Now:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def flood(gate: Floodgate, publisher: str = "?") -> int:
    """Refused live messages at one instant until the gate closes: how many passed."""
    passed = 0
    while gate.admit(False) == PASS and gate.refused(publisher) == PASS:
        passed += 1
    return passed


@given(st.lists(st.integers(0, 4 * 3600), max_size=400))
def test_refused_messages_under_the_bound_never_close_the_gate(quarters):
    """Bursts of BOUND // 5 refused messages, each at a quarter of a window: any window holds
    at most four of them, so never more than the bound."""
    now = Now()
    gate = Floodgate(now)
    gate.opened()
    for quarter in sorted(set(quarters)):
        now.t = quarter * WINDOW_S / 4
        assert all(gate.refused("?") == PASS for _ in range(BOUND // 5))
    assert not gate.closed


@given(st.integers(0, 5000), st.integers(0, BOUND))
def test_retained_messages_never_count(retained, refused):
    """Whatever the broker holds (600 junk topics retained once, and more) is what a
    subscription brings, not a rate: only refused live messages are counted."""
    now = Now()
    gate = Floodgate(now)
    gate.opened()
    assert all(gate.admit(True) == PASS for _ in range(retained))
    assert all(gate.admit(False) == PASS and gate.refused("?") == PASS for _ in range(refused))
    assert not gate.closed and gate.seen == retained + refused


def test_each_publisher_is_counted_alone():
    now = Now()
    gate = Floodgate(now)
    gate.opened()
    for publisher in ("@admin", "t1", "?"):
        assert all(gate.refused(publisher) == PASS for _ in range(BOUND))
    assert not gate.closed
    assert gate.refused("t1") == FLOOD and gate.closed and gate.by == "t1"


@given(st.lists(st.floats(0.0, 2 * CALM_S), min_size=1, max_size=12))
def test_the_pause_doubles_while_the_flood_goes_on_and_never_passes_the_longest(calms):
    """Each flood is BOUND + 1 refused live messages at once; `calm` is how long after the gate
    opened again the next flood comes. Everything passes while open, nothing while closed."""
    now = Now()
    gate = Floodgate(now)
    gate.opened()
    expected = FIRST
    for calm in calms:
        assert flood(gate) == BOUND and gate.pause == expected <= LONGEST <= 60.0
        assert gate.admit(False) == DROP and gate.admit(True) == DROP
        until = now.t + expected
        assert gate.until == until
        now.t = until - 0.001
        assert not gate.due() and gate.closed
        now.t = until
        assert gate.due() and not gate.due() and not gate.closed
        gate.opened()
        reopened, now.t = now.t, now.t + calm
        # the calm as the table's clock sums it: (until + 60.0) - until may fall under 60.0
        expected = min(2 * expected, LONGEST) if now.t - reopened < CALM_S else FIRST


def test_a_flood_going_on_is_left_15_30_then_45_s_and_a_calm_minute_starts_again():
    """The pauses docs/fleet.md gives: a valid message is held back a minute at most."""
    now = Now()
    gate = Floodgate(now)
    gate.opened()
    pauses = []
    for calm in (0.0, 0.0, 0.0, CALM_S, 0.0):
        flood(gate, "t9")
        pauses.append(gate.pause)
        now.t = gate.until or now.t
        assert gate.due()
        gate.opened()
        now.t += calm
    assert pauses == [15.0, 30.0, 45.0, 45.0, 15.0]


# ---- on a real broker --------------------------------------------------------------------------

class Flooder:
    """A broker client publishing forged staff lists as fast as the broker takes them
    (QoS 0, each hundredth at QoS 1 and waited for: `taken` is what the broker has)."""

    def __init__(self, broker, payload: bytes = FORGED) -> None:
        mqtt = mqtt_client()
        self.payload = payload
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=unique_id("flooder"))
        self.client.username_pw_set(USER, PASSWORD)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        self.taken = 0
        self.counted = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._flood, daemon=True)
        self._thread.start()

    def _flood(self) -> None:
        while not self._stop.is_set():
            for _ in range(99):
                self.client.publish(SHARED_STAFF, self.payload, qos=0)
            self.client.publish(SHARED_STAFF, self.payload, qos=1).wait_for_publish(WAIT_S)
            with self.counted:
                self.taken += 100
                self.counted.notify_all()

    def wait_taken(self, count: int) -> bool:
        with self.counted:
            return self.counted.wait_for(lambda: self.taken >= count, WAIT_S)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(WAIT_S)
        self.client.disconnect()
        self.client.loop_stop()


def wait_link(table: CafeTable, ready) -> bool:
    link = table.link
    with link._progress:                       # what the link's threads signal by
        return link._progress.wait_for(lambda: ready(link), WAIT_S)


def wait_heard(table: CafeTable, ready) -> bool:
    """Wait until `ready()` holds, looking again at each message the table hears."""
    for _ in range(10_000):
        table.heard.clear()
        if ready():
            return True
        if not table.heard.wait(WAIT_S):
            return ready()
    return False


def shared_deck(folder, name: str) -> tuple[str, bytes]:
    """The message sharing a new deck `name` (a registry each: enrolling in one grows slow)."""
    registry = DeckRegistry(folder / name)
    a_deck(registry, name)
    return deck_message(registry, name, "t9", "now", admin_signer(folder))


def flood_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "device.fleet.link" and "not listening" in r.getMessage()]


def test_a_flood_makes_the_table_leave_the_shared_topics_and_come_back_after_the_pause(
        tmp_path, broker, caplog):
    caplog.set_level(logging.WARNING)
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    gate = table.link.floodgate
    assert wait_link(table, lambda link: link.listening)
    flooder = Flooder(broker)
    try:
        assert wait_link(table, lambda link: gate.closed and not link.listening)
        seen, refused = gate.seen, table.inbox.refused
        # the flood goes on: the broker takes thousands more, and the table's own message
        # after them comes back acknowledged (the broker keeps each client's order), so
        # anything it still sent the table would have come first
        assert flooder.wait_taken(flooder.taken + AFTER)
        assert table.link.send_acked(sync_topic(unique_id("t1")), b"sync", WAIT_S)
        assert (gate.seen, table.inbox.refused) == (seen, refused)
        assert seen <= 5 * BOUND          # the flooder's few in flight when the broker heard
    finally:
        flooder.stop()
    assert flood_lines(caplog) == [f"fleet: more than {BOUND} refused messages a second on "
                                   f"tabletop/shared/# (from anyone): not listening to them "
                                   f"for {FIRST:g} s"]
    send_retained(settings_for(broker), [shared_deck(tmp_path, "cafe8")])
    table.play([f"wait {FIRST - 1:g}"])              # the pause is not over: nothing heard
    assert gate.closed and not table.link.listening and table.screens[-1].header == "TABLETOP"
    table.play(["wait 2"])                           # it is: the table listens again
    assert wait_link(table, lambda link: link.listening)
    offered = lambda: table.inbox.next_offer(table.registry, "t1")        # noqa: E731
    assert wait_heard(table, lambda: offered() is not None)
    table.play(["wait 1"])
    assert "New deck cafe8" in " ".join(table.screens[-1].lines)
    table.play(["press back"])                       # not now; and what is shared from now on
    send_retained(settings_for(broker), [shared_deck(tmp_path, "cafe7")])
    assert wait_heard(table, lambda: offered() is not None)
    table.play(["wait 1"])
    assert "New deck cafe7" in " ".join(table.screens[-1].lines) and not gate.closed
    assert len(flood_lines(caplog)) == 1
    table.link.close(flush_s=0)


def test_the_shared_decks_a_cafe_keeps_on_its_broker_are_no_flood(tmp_path, broker):
    """Retained, they all come at once when the table subscribes: 50 of them are heard and
    offered, and the table keeps listening. (Valid, they are never refused, so never counted;
    more retained messages than a second's bound, refused ones at that, are the 600 junk
    topics below.)"""
    count = 50
    send_retained(settings_for(broker), [shared_deck(tmp_path / "decks", f"cafe{n}")
                                         for n in range(count)])
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    assert wait_link(table, lambda link: link.listening)
    gate = table.link.floodgate
    assert wait_heard(table, lambda: gate.seen >= count)
    assert not gate.closed and table.link.listening and table.inbox.refused == 0
    table.play(["wait 1"])
    assert "New deck cafe" in " ".join(table.screens[-1].lines)
    table.link.close(flush_s=0)


# ---- the patterns of an attacker, each against a real staff list --------------------------------

MOST_S = 60                   # the longest a valid shared message may wait, in virtual seconds


def staff_list(folder, *labels: str) -> tuple[str, bytes]:
    """The café's staff list naming `labels`, signed with its admin key."""
    registry = DeckRegistry(folder / ("staff-" + "-".join(labels)))
    for n, label in enumerate(labels, 1):
        registry.add_staff(f"04{n:012X}", label)
    return staff_message(registry, "cafe", "now", FLEET_KEY, admin_signer(folder))


def heard_staff(table: CafeTable) -> int:
    """How many cards the latest staff list the table took names (-1: none yet)."""
    with table.inbox._lock:                    # paho's thread writes it
        shared = table.inbox._heard.get(SHARED_STAFF)
    return -1 if shared is None else len(shared.cards)


def virtual_wait(table: CafeTable, taken) -> int:
    """Virtual seconds until `taken()`: the table's clock moves a second at a time while its
    gate is closed; while it listens, the retained messages come first, before the flood can
    close the gate again."""
    waited = 0
    while not taken():
        gate = table.link.floodgate
        if gate.closed:
            table.play(["wait 1"])
            waited += 1
            assert waited <= MOST_S, f"a valid staff list waited {waited} s"
            continue
        assert wait_link(table, lambda link: link.listening or link.floodgate.closed)
        assert wait_heard(table, lambda: taken() or table.link.floodgate.closed)
    return waited


def test_junk_retained_on_600_topics_never_closes_the_gate(tmp_path, broker):
    """`{}` retained once on tabletop/shared/decks/j000..j599: what a subscription brings,
    not a rate. A real staff list retained after them is taken at once, at every
    subscription."""
    settings = settings_for(broker)
    send_retained(settings, [(f"tabletop/shared/decks/j{n:03d}", b"{}") for n in range(600)])
    send_retained(settings, [staff_list(tmp_path, "Sam", "Kim")])
    for name in ("t1", "t2"):                        # two subscriptions, two tables
        table = CafeTable(tmp_path / name, name, settings)
        assert virtual_wait(table, lambda table=table: heard_staff(table) == 2) == 0
        assert not table.link.floodgate.closed and table.inbox.refused >= 600
        table.link.close(flush_s=0)


def test_a_sustained_flood_delays_a_real_staff_list_at_most_the_longest_pause(tmp_path, broker):
    """A flooder as fast as the broker takes it: the gate closes, opens, closes again (15, 30,
    45, 45 s); a staff list the café shares meanwhile is taken at the next opening."""
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    assert wait_link(table, lambda link: link.listening)
    flooder = Flooder(broker)
    waits = []
    try:
        for labels in (("Sam",), ("Sam", "Kim"), ("Sam", "Kim", "Lou")):
            assert wait_link(table, lambda link: link.floodgate.closed)
            send_retained(settings_for(broker), [staff_list(tmp_path, *labels)])
            count = len(labels)
            waits.append(virtual_wait(table, lambda count=count: heard_staff(table) == count))
    finally:
        flooder.stop()
    assert all(wait <= LONGEST + 1 for wait in waits), waits
    print(f"sustained flood: a real staff list waited {waits} virtual seconds")
    table.link.close(flush_s=0)


def test_a_replayed_signed_list_floods_under_its_publisher_and_the_new_one_gets_through(
        tmp_path, broker):
    """The café's own old staff list, replayed live as fast as the broker takes it: signed,
    so counted as the café's, refused as not newer; the café's next list still comes in."""
    old = staff_list(tmp_path, "Sam")
    send_retained(settings_for(broker), [old])
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    assert virtual_wait(table, lambda: heard_staff(table) == 1) == 0
    send_retained(settings_for(broker), [staff_list(tmp_path, "Sam", "Kim")])
    assert virtual_wait(table, lambda: heard_staff(table) == 2) == 0
    flooder = Flooder(broker, old[1])
    try:
        assert wait_link(table, lambda link: link.floodgate.closed)
        assert table.link.floodgate.by == "@admin"
        send_retained(settings_for(broker), [staff_list(tmp_path, "Kim")])
        waited = virtual_wait(table, lambda: heard_staff(table) == 1)
    finally:
        flooder.stop()
    assert waited <= LONGEST + 1
    print(f"replayed list flood: the new staff list waited {waited} virtual seconds")
    table.link.close(flush_s=0)


def test_the_inbox_says_whom_to_count_for_each_message(tmp_path):
    """Taken as new: nobody; the same bytes again (a repeat: taken, not newer) and the café's
    old list: the café; junk and forgeries: anyone. Retained ones the link never counts."""
    from tests.device.fleet_tables import cafe_inbox
    inbox = cafe_inbox(tmp_path / "t1")
    old, new = staff_list(tmp_path, "Sam"), staff_list(tmp_path, "Sam", "Kim")
    assert inbox.receive(*old) is None and inbox.receive(*new) is None
    assert [inbox.receive(*new) for _ in range(3)] == ["@admin"] * 3 and inbox.refused == 0
    assert inbox.receive(*old) == "@admin" and inbox.refused == 1
    assert inbox.receive(SHARED_STAFF, b"{}") == "?" and inbox.receive(SHARED_STAFF, FORGED) == "?"
    assert inbox.refused == 3 and heard_staff_of(inbox) == 2


def heard_staff_of(inbox) -> int:
    shared = inbox._heard.get(SHARED_STAFF)
    return -1 if shared is None else len(shared.cards)
