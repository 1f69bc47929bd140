"""A player card given by a tap at a table, from the back office, on a real Mosquitto: staff
ask, the table shows the request and sends its next unknown tap back, staff confirm, and the
roster reaches every table. A request for a table not enrolled, an unknown player, a replayed
or forged answer and a confirmation of a card no table offered are each refused in one line,
with nothing changed."""
from __future__ import annotations

import threading

import pytest

from device.fleet.backoffice.api import Api
from device.fleet.backoffice.cards import card_desk, card_routes
from device.fleet.backoffice.history import History
from device.fleet.backoffice.office import BackOffice
from device.fleet.backoffice.password import store
from device.fleet.backoffice.sharing import Sharing, shared
from device.fleet.claim import ADMIN, REQUEST, answer_message, claim_topic, request_message
from device.fleet.counter import wall_ms
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.enrolled import Enrolled
from device.fleet.envelope import Signer
from device.fleet.keys import public_text
from device.fleet.link import Link, unique_id
from device.fleet.topics import SHARED_PLAYERS
from device.players.roster import Roster, new_player
from tests.device.backoffice_client import CHEAP, PASSWORD, Staffer
from tests.device.fleet_tables import cafe_admin, settings_for, table_signer
from tests.device.mosquitto import running_broker

from .test_fleet_claim import NEW_CARD, OTHER_CARD, ClaimTable, ClaimWait

WAIT_S = 30.0


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


class Office:
    """The dashboard's back office with its card desk; `answered` is set at each answer heard."""

    def __init__(self, state_dir, settings) -> None:
        store(state_dir, PASSWORD, n=CHEAP)
        cafe_admin(state_dir)
        history, sharing = History(None), Sharing(settings, state_dir)
        self.desk, self.link = card_desk(settings, state_dir)
        self.answered, self.verdicts = threading.Event(), list[str | None]()
        heard = self.desk.receive

        def receive(topic: str, payload: bytes) -> str | None:
            self.verdicts.append(heard(topic, payload))
            self.answered.set()
            return self.verdicts[-1]
        self.link.on_message = receive
        back = BackOffice(state_dir, api=lambda o: [*Api(o, history, sharing=sharing).routes(),
                                                    *card_routes(o, self.desk, lambda: shared(sharing.roster))])
        self.server = DashboardServer(Board(counted=history), "127.0.0.1", 0, token=None,
                                      backoffice=back).start()

    def listening(self) -> bool:
        """The desk's link, started by its first request, hears the answers."""
        with self.link._progress:
            return self.link._progress.wait_for(lambda: self.link.listening, WAIT_S)

    def hear(self, topic: str, payload: bytes) -> str | None:
        """A message on the broker, then the desk's verdict on it."""
        self.answered.clear()
        sender = Link(self.link.settings, unique_id("someone")).start()
        assert sender.wait_up(WAIT_S) and sender.send_acked(topic, payload, WAIT_S)
        sender.close(flush_s=0)
        assert self.answered.wait(WAIT_S)
        return self.verdicts[-1]

    def close(self) -> None:
        self.server.close()
        if self.link.up.is_set():
            self.link.close(flush_s=0)


def test_staff_give_a_card_by_a_tap_at_a_table_and_every_table_gets_the_roster(tmp_path, broker):
    cafe = tmp_path / "cafe"
    office = Office(cafe, settings_for(broker, table="cafe"))
    table = ClaimTable(tmp_path / "t1", "t1", broker, wall_ms=wall_ms)
    try:
        Enrolled(cafe).enrol("t1", table.public_key)
        staffer = Staffer(office.server)
        assert staffer.login() == 200
        assert staffer.post("/admin/api/players/add", {"name": "Ann"})[0] == 200
        assert staffer.post("/admin/api/cards/ask", {"name": "Ann", "table": "t9"}) == (
            400, {"error": "'t9' is not an enrolled table (tabletop fleet enrol)"})
        assert staffer.post("/admin/api/cards/ask", {"name": "Zed", "table": "t1"})[0] == 400
        assert staffer.get("/admin/api/cards") == (200, {"waiting": [], "offers": []})
        assert staffer.ask("POST", "/admin/api/cards/ask", {"name": "Ann", "table": "t1"},
                           csrf=False)[0] == 403
        table.heard.clear()
        assert staffer.post("/admin/api/cards/ask", {"name": "Ann", "table": "t1"}) == (
            200, {"asked": "t1", "player": "Ann", "for_s": 120})
        assert office.listening() and table.heard_on(claim_topic("t1", REQUEST))
        office.answered.clear()
        table.play(["wait 1"])
        assert isinstance(table.app.mode, ClaimWait) and "Tap the card for Ann" in table.shows()
        table.tap(NEW_CARD)
        assert office.answered.wait(WAIT_S) and office.verdicts[-1] is None
        assert staffer.get("/admin/api/cards") == (200, {
            "waiting": [{"table": "t1", "player": "Ann"}],
            "offers": [{"table": "t1", "player": "Ann", "uid": NEW_CARD}]})
        assert Roster(cafe).find("Ann").cards == ()           # nothing given before staff confirm
        assert staffer.post("/admin/api/cards/confirm", {"table": "t1", "uid": OTHER_CARD}) == (
            400, {"error": f"no card {OTHER_CARD} offered by t1"})
        table.heard.clear()
        assert staffer.post("/admin/api/cards/confirm", {"table": "t1", "uid": NEW_CARD}) == (
            200, {"name": "Ann", "short": "Ann", "cards": [NEW_CARD], "shared": SHARED_PLAYERS})
        assert table.heard.wait(WAIT_S)
        table.play(["wait 1"])                                 # a tick merges the roster
        assert Roster(tmp_path / "t1").holder(NEW_CARD).name == "Ann"
        assert staffer.get("/admin/api/cards") == (200, {"waiting": [], "offers": []})
    finally:
        table.plugin.link.close(flush_s=0)
        office.close()


def test_a_replayed_forged_or_unasked_answer_offers_nothing(tmp_path, broker):
    cafe = tmp_path / "cafe"
    office = Office(cafe, settings_for(broker, table="cafe"))
    try:
        t1, t2 = table_signer("t1"), table_signer("t2")
        Enrolled(cafe).enrol("t1", public_text(t1.private))
        Roster(cafe).add(new_player("Ann"))
        asked = office.desk.ask("t1", "Ann")
        assert office.listening()
        unasked = request_message(Signer(t1.private, ADMIN, t1.counter), "t1", "Ann")[2]
        cases = [answer_message(table_signer("t1", key="forger"), asked, NEW_CARD),   # badly signed
                 answer_message(t2, asked, NEW_CARD),                                  # t2 not enrolled
                 answer_message(t1, unasked, NEW_CARD)]                                # another request
        for topic, payload in cases:
            assert office.hear(topic, payload) == "?"
        assert office.desk.view()["offers"] == []
        topic, payload = answer_message(t1, asked, NEW_CARD)
        assert office.hear(topic, payload) is None
        assert office.hear(topic, payload) == "?"                                     # a replay
        assert office.desk.view()["offers"] == [{"table": "t1", "player": "Ann", "uid": NEW_CARD}]
        assert Roster(cafe).find("Ann").cards == ()
    finally:
        office.close()
