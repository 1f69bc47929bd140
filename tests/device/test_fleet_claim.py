"""A player card given by a tap at any table: the café's signed request, the table's signed
answer, and everything an attacker can do to either refused with nothing changed.

The messages' checks first (no broker), then a table on simulated parts and real Mosquitto:
it shows the request, refuses a known or a staff card and waits on, sends the next unknown
tap back, and lets the request's time run out on its own (virtual) clock."""
from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.decks.registry import StaffRef
from device.fleet import keys
from device.fleet.claim import (
    ANSWER,
    REQUEST,
    Answer,
    ClaimBox,
    Claims,
    Request,
    answer_message,
    claim_of,
    claim_topic,
    heard_by,
    read_answer,
    read_request,
    request_message,
    wall_ms_of,
)
from device.fleet.claim_plugin import CardClaim
from device.fleet.claim_screen import ClaimWait
from device.fleet.counter import Counter
from device.fleet.envelope import ADMIN, Refused, Signer, Trust
from device.fleet.freshness import Freshness
from device.fleet.link import Link, unique_id
from device.fleet.plugin import FleetPlugin
from device.fleet.shared import Inbox
from device.fleet.signing import StaffRoll, staff_hash
from device.fleet.topics import SHARED_FILTER
from device.inputs import Tapped
from device.players.roster import Roster, new_player
from device.ui.game_select import GameSelect
from tests.device.fleet_tables import (
    ADMIN_KEY,
    FLEET_KEY,
    SETTLE,
    CafeTable,
    admin_private,
    broker_under_the_acl,
    settings_for,
    table_signer,
)
from tests.device.mosquitto import running_broker

from .test_fleet import WAIT_S

NEW_CARD, OTHER_CARD = "04C0FFEE000001", "04C0FFEE000002"
NOW = 1_765_000_000_000                      # the table's wall clock, in ms


class Clock:
    def __init__(self, ms: int = NOW) -> None:
        self.ms = ms

    def now_ms(self) -> int:
        return self.ms


def cafe(folder: Path, clock: Clock) -> Signer:
    return Signer(admin_private(), ADMIN, Counter(folder, now_ms=clock.now_ms))


def tables_of(*names: str) -> dict[str, str]:
    return {name: keys.public_text(table_signer(name).private) for name in names}


# ---- the messages -----------------------------------------------------------------------------

def test_a_request_and_its_answer_travel_signed_and_are_taken_once(tmp_path):
    clock = Clock()
    topic, payload, asked = request_message(cafe(tmp_path, clock), "t1", "Ann")
    counter = asked.counter
    assert topic == "tabletop/t1/claim" and claim_of(topic) == ("t1", REQUEST)
    admin, seen = keys.public_key(ADMIN_KEY), Freshness(None)
    request = read_request("t1", topic, payload, admin, seen, NOW)
    assert request == Request("t1", "Ann", counter, 120)
    with pytest.raises(Refused, match="a replay"):       # the same request heard again
        read_request("t1", topic, payload, admin, seen, NOW)
    where, answer = answer_message(table_signer("t1"), request, "04:c0:ff:ee:00:00:01")
    assert claim_of(where) == ("t1", ANSWER)
    seen_cafe = Freshness(None)
    assert read_answer(where, answer, tables_of("t1"), seen_cafe) == Answer("t1", "Ann", NEW_CARD, counter)
    with pytest.raises(Refused, match="a replay"):
        read_answer(where, answer, tables_of("t1"), seen_cafe)


def test_a_request_forged_moved_held_back_or_for_another_table_is_refused(tmp_path):
    clock, admin = Clock(), keys.public_key(ADMIN_KEY)
    signer = cafe(tmp_path, clock)
    topic, payload, _ = request_message(signer, "t1", "Ann")
    forged = Signer(table_signer("x").private, ADMIN, Counter(tmp_path / "f", now_ms=clock.now_ms))
    cases = {
        "badly signed": (topic, request_message(forged, "t1", "Ann")[1], NOW),
        "signed for another topic": (topic, request_message(signer, "t2", "Ann")[1], NOW),
        "not this table's": ("tabletop/t2/claim", request_message(signer, "t2", "Ann")[1], NOW),
        "for another table": (topic, signer.seal(topic, {"table": "t2", "player": "Ann",
                                                         "for_s": 60}), NOW),
        "expired": (topic, payload, NOW + 121_000),
        "from the future": (topic, payload, NOW - 121_000),
        "not signed by @admin": (topic, table_signer("t1").seal(topic, {"table": "t1", "player": "Ann",
                                                                        "for_s": 60}), NOW),
        "not 1 to 600 seconds": request_message(signer, "t1", "Ann", for_s=3600)[:2] + (NOW,),
        "how unnamed seats": request_message(signer, "t1", "P1")[:2] + (NOW,),
    }
    for why, (where, message, now) in cases.items():
        with pytest.raises(Refused, match=why):
            read_request("t1", where, message, admin, Freshness(None), now)
    moved = json.loads(payload)
    moved["table"] = "t2"                                  # the signature no longer checks
    with pytest.raises(Refused, match="badly signed"):
        read_request("t1", topic, json.dumps(moved).encode(), admin, Freshness(None), NOW)
    with pytest.raises(Refused, match="no key here"):      # a table without fleet.admin_key
        read_request("t1", topic, payload, None, Freshness(None), NOW)


def test_an_answer_forged_moved_or_from_a_table_not_enrolled_is_refused():
    request = Request("t1", "Ann", 5, 120)
    topic, payload = answer_message(table_signer("t1"), request, NEW_CARD)
    cases = {
        "not an enrolled table": (topic, payload, tables_of("t2")),
        "badly signed": (topic, answer_message(table_signer("t1", key="forger"), request, NEW_CARD)[1],
                         tables_of("t1")),
        "not signed by t2": ("tabletop/t2/claimed", payload, tables_of("t1", "t2")),
        "not a claim answer": ("tabletop/t1/claim", payload, tables_of("t1")),
        "not a tag UID": (*answer_message(table_signer("t1"), request, "nope"), tables_of("t1")),
    }
    for why, (where, message, tables) in cases.items():
        with pytest.raises(Refused, match=why):
            read_answer(where, message, tables, Freshness(None))


@given(st.binary(max_size=300), st.sampled_from(["tabletop/t1/claim", "tabletop/t1/claimed"]))
def test_any_bytes_on_either_topic_are_refused_in_one_line(payload, topic):
    with pytest.raises(Refused):
        read_request("t1", topic, payload, keys.public_key(ADMIN_KEY), Freshness(None), NOW)
    with pytest.raises(Refused):
        read_answer(topic, payload, tables_of("t1"), Freshness(None))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


FUZZ_CAFE, FUZZ_T1 = Signer(admin_private(), ADMIN, table_signer("-").counter), table_signer("t1")
FUZZ_ADMIN, FUZZ_TABLES = keys.public_key(ADMIN_KEY), tables_of("t1")


@settings(max_examples=40)
@given(st.dictionaries(st.sampled_from(["table", "player", "for_s", "uid", "request", "counter"]), JSON,
                       max_size=6))
def test_signed_messages_of_any_fields_are_taken_only_when_whole(fields):
    """Well signed, but any fields of any JSON type: a request or an answer, or Refused."""
    topic = claim_topic("t1", REQUEST)
    try:
        request = read_request("t1", topic, FUZZ_CAFE.seal(topic, fields), FUZZ_ADMIN, None,
                               FUZZ_CAFE.counter.next())
        assert (request.table, request.player, request.for_s) == (fields["table"], fields["player"], fields["for_s"])
    except Refused:
        pass
    topic = claim_topic("t1", ANSWER)
    try:
        answer = read_answer(topic, FUZZ_T1.seal(topic, fields), FUZZ_TABLES, None)
        assert (answer.table, answer.player, answer.request) == ("t1", fields["player"], fields["request"])
    except Refused:
        pass


def test_the_cafe_offers_only_the_answer_to_the_request_it_waits_for():
    now = [0.0]
    claims = Claims(lambda: now[0])
    with pytest.raises(Refused, match="asked for no card"):
        claims.answered(Answer("t1", "Ann", NEW_CARD, 7))
    claims.asked(Request("t1", "Ann", 7, 120))
    with pytest.raises(Refused, match="another request"):
        claims.answered(Answer("t1", "Ann", NEW_CARD, 6))
    with pytest.raises(Refused, match="another request"):
        claims.answered(Answer("t1", "Bob", NEW_CARD, 7))
    offer = claims.answered(Answer("t1", "Ann", NEW_CARD, 7))
    assert claims.offers() == [offer] and claims.waiting() == [Request("t1", "Ann", 7, 120)]
    with pytest.raises(Refused, match="no card"):
        claims.take("t1", OTHER_CARD)
    assert claims.take("t1", NEW_CARD) == offer and claims.offers() == [] and claims.waiting() == []
    with pytest.raises(Refused, match="no card"):
        claims.take("t1", NEW_CARD)                        # confirmed once only
    claims.asked(Request("t2", "Bob", 8, 120))
    claims.answered(Answer("t2", "Bob", OTHER_CARD, 8))
    now[0] = 120.0                                         # its time is up at the café too
    assert claims.offers() == [] and claims.waiting() == []
    with pytest.raises(Refused, match="no longer"):
        claims.answered(Answer("t2", "Bob", OTHER_CARD, 8))


# ---- a table on the broker --------------------------------------------------------------------

@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


class ClaimTable(CafeTable):
    """A café table whose link is wired as `open_fleet` wires it: the shared topics and its
    own claim topic, each to its reader; the café's requests counted by the table's clock."""

    def __init__(self, folder: Path, name: str, broker, settings=None, wall_ms=None) -> None:
        super().__init__(folder, name, None)
        self.settings = settings or settings_for(broker)
        self.signer = Signer.table(folder, name)
        self.inbox = Inbox(Trust.of(ADMIN_KEY, Freshness.at(folder)), FLEET_KEY)
        self.box = ClaimBox(name, ADMIN_KEY, self.inbox.trust.seen, wall_ms or self.wall_ms)
        self.heard, self.verdicts = threading.Event(), list[str | None]()
        self.topics: list[str] = []                 # every topic heard, in order
        route = heard_by(self.inbox.receive, self.box.receive)

        def heard(topic: str, payload: bytes) -> str | None:
            try:
                self.verdicts.append(route(topic, payload))
                return self.verdicts[-1]
            finally:
                self.topics.append(topic)
                self.heard.set()
        link = Link(self.settings, f"tabletop-{name}",
                    subscriptions=(SHARED_FILTER, claim_topic(name, REQUEST)), on_message=heard).start()
        assert link.wait_up(WAIT_S)
        self.plugin = FleetPlugin(link, name, self.clock.wall, self.inbox, self.registry, None, self.signer)
        self.app.attach(self.plugin, CardClaim(self.box, link, self.signer, folder, FLEET_KEY))

    def wall_ms(self) -> int:
        return wall_ms_of(self.clock.wall())

    def heard_on(self, topic: str) -> bool:
        """Wait until a message on `topic` is heard, whatever else comes first (the roster a
        new player sends every table may come before a request, or after)."""
        for _ in range(50):                         # bounded: each wake is one message heard
            if topic in self.topics:
                return True
            if not self.heard.wait(WAIT_S):
                return False
            self.heard.clear()
        return topic in self.topics

    def hear(self, broker, topic: str, payload: bytes, sender_settings=None) -> str | None:
        """One live message to the table, heard, then a tick: the table's verdict."""
        self.heard.clear()
        sender = Link(sender_settings or settings_for(broker), unique_id("cafe")).start()
        assert sender.wait_up(WAIT_S) and sender.send_acked(topic, payload, WAIT_S)
        sender.close(flush_s=0)
        assert self.heard.wait(WAIT_S)
        self.play(["wait 1"])
        return self.verdicts[-1]

    def tap(self, uid: str) -> None:
        self.app.handle(Tapped(uid, self.app.registry.lookup(uid)))
        self.play(["wait 1"])

    def shows(self) -> str:
        screen = self.screens[-1]
        return " ".join((screen.header, *screen.lines)).replace("\n", " ")


class CafeEar:
    """The café machine's subscription to every table's answers."""

    def __init__(self, broker, settings=None) -> None:
        self.answers: queue.Queue = queue.Queue()
        self.link = Link(settings or settings_for(broker), unique_id("dashboard"),
                         subscriptions=("tabletop/+/claimed",),
                         on_message=lambda topic, payload: self.answers.put((topic, payload))).start()
        assert self.link.wait_up(WAIT_S)

    def next(self) -> tuple[str, bytes]:
        return self.answers.get(timeout=WAIT_S)


def test_a_table_takes_its_next_unknown_tap_for_the_cafe_and_refuses_known_cards(tmp_path, broker):
    table = ClaimTable(tmp_path / "t1", "t1", broker)
    Roster(tmp_path / "t1").add(new_player("Bob"))
    Roster(tmp_path / "t1").give_card(OTHER_CARD, "Bob")
    staff = table.app.registry.sim_uid("staff#1")
    pending = "04ABCDEF000009"                             # shared by the café, not tapped here yet
    StaffRoll(tmp_path / "t1").add({staff_hash(FLEET_KEY, pending): "Kim"})
    assert isinstance(table.app.registry.lookup(staff), StaffRef)
    ear, clock = CafeEar(broker), Clock()
    clock.now_ms = table.wall_ms                            # the café's clock agrees with the table's
    topic, payload, asked = request_message(cafe(tmp_path / "cafe", clock), "t1", "Ann")
    claims = Claims(lambda: 0.0)
    claims.asked(asked)
    assert table.hear(broker, topic, payload) is None
    assert isinstance(table.app.mode, ClaimWait) and "Tap the card for Ann" in table.shows()
    assert "BACK: cancel" in table.shows()
    for uid, said in ((staff, "staff card"), (pending, "staff card"), (OTHER_CARD, "card is known")):
        table.tap(uid)
        assert said in table.shows() and isinstance(table.app.mode, ClaimWait), uid
    assert ear.answers.empty()
    table.tap(NEW_CARD)
    assert "Card sent to the café for Ann" in table.shows().replace("\n", " ")
    table.play([SETTLE])
    assert type(table.app.mode) is GameSelect
    answer = read_answer(*ear.next(), {"t1": table.public_key}, Freshness.at(tmp_path / "cafe"))
    offer = claims.answered(answer)
    assert (offer.player, offer.uid) == ("Ann", NEW_CARD)
    assert Roster(tmp_path / "t1").holder(NEW_CARD) is None  # the café gives it, after staff confirm
    # the same request again (a replay) and a forged one change nothing
    assert table.hear(broker, topic, payload) == ADMIN
    assert type(table.app.mode) is GameSelect
    forged = Signer(table_signer("x").private, ADMIN, Counter(tmp_path / "f", now_ms=table.wall_ms))
    assert table.hear(broker, *request_message(forged, "t1", "Eve")[:2]) == ADMIN
    assert type(table.app.mode) is GameSelect
    table.plugin.link.close(flush_s=0)
    ear.link.close(flush_s=0)


def test_a_request_ends_by_back_or_when_its_time_is_up_on_the_tables_clock(tmp_path, broker):
    table = ClaimTable(tmp_path / "t1", "t1", broker)
    clock = Clock()
    clock.now_ms = table.wall_ms
    signer = cafe(tmp_path / "cafe", clock)
    assert table.hear(broker, *request_message(signer, "t1", "Ann")[:2]) is None
    table.play(["press back", "wait 1"])
    assert type(table.app.mode) is GameSelect
    assert table.hear(broker, *request_message(signer, "t1", "Ann", for_s=30)[:2]) is None
    assert isinstance(table.app.mode, ClaimWait)
    before = len(table.screens)
    table.play(["wait 31"])
    assert type(table.app.mode) is GameSelect
    assert any("Card for Ann: time is up" in " ".join(s.lines).replace("\n", " ")
               for s in table.screens[before:])
    held = request_message(signer, "t1", "Ann", for_s=30)[:2]
    table.play(["wait 31"])                                 # held back on the way: expired on arrival
    assert table.hear(broker, *held) == ADMIN and type(table.app.mode) is GameSelect
    table.plugin.link.close(flush_s=0)


def test_under_the_generated_acl_a_table_hears_its_requests_and_the_cafe_its_answers(tmp_path):
    with broker_under_the_acl(tmp_path) as broker:
        owner = settings_for(broker, username="cafe-admin")
        table = ClaimTable(tmp_path / "t1", "t1", broker, settings_for(broker, username="t1"))
        ear, clock = CafeEar(broker, owner), Clock()
        clock.now_ms = table.wall_ms
        request = request_message(cafe(tmp_path / "cafe", clock), "t1", "Ann")[:2]
        assert table.hear(broker, *request, sender_settings=owner) is None
        table.tap(NEW_CARD)
        answer = read_answer(*ear.next(), {"t1": table.public_key}, Freshness(None))
        assert (answer.player, answer.uid) == ("Ann", NEW_CARD)
        table.plugin.link.close(flush_s=0)
        ear.link.close(flush_s=0)
