"""What the back office changes reaches every table, on a real Mosquitto: a player added in the
browser is merged by a table as `tabletop players publish` would have it merged, a staff card
revoked is sent as the café's signed staff list, a deck is shared on demand; with the broker
gone the change is kept and the answer says in one line that the tables were not told."""
from __future__ import annotations

import pytest

from device.decks.registry import DeckRegistry
from device.fleet.backoffice.api import Api
from device.fleet.backoffice.history import History
from device.fleet.backoffice.office import BackOffice
from device.fleet.backoffice.password import store
from device.fleet.backoffice.sharing import Sharing
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.topics import SHARED_PLAYERS, SHARED_STAFF, shared_deck_topic
from device.players.roster import Roster
from tests.device.backoffice_client import CHEAP, PASSWORD, Staffer
from tests.device.fleet_tables import CafeTable, cafe_admin, settings_for
from tests.device.mosquitto import running_broker

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py

WAIT_S = 30.0


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


def office(state_dir, settings) -> DashboardServer:
    store(state_dir, PASSWORD, n=CHEAP)
    cafe_admin(state_dir)                                  # the café's admin key, as fleet keys --admin keeps it
    history = History(None)
    back = BackOffice(state_dir, api=lambda o: Api(o, history, sharing=Sharing(settings, state_dir)).routes())
    return DashboardServer(Board(counted=history), "127.0.0.1", 0, token=None, backoffice=back).start()


def test_a_player_added_in_the_browser_is_merged_by_a_table(tmp_path, broker):
    server = office(tmp_path / "cafe", settings_for(broker, table="cafe"))
    try:
        staffer = Staffer(server)
        assert staffer.login() == 200
        assert staffer.post("/admin/api/players/add", {"name": "Zoé"}) == (
            200, {"name": "Zoé", "short": "Zoé", "cards": [], "shared": SHARED_PLAYERS})
        table = CafeTable(tmp_path / "t1", "table-1", settings_for(broker))
        assert table.heard.wait(WAIT_S)
        table.play(["wait 1"])                               # a tick merges it
        assert [p.name for p in Roster(tmp_path / "t1").players()] == ["Zoé"]
        table.link.close(flush_s=0)

        assert staffer.post("/admin/api/staff/add", {"uid": "04A224B1", "label": "Mo"})[1]["shared"] == SHARED_STAFF
        assert staffer.post("/admin/api/staff/revoke", {"uid": "04A224B1"})[1]["shared"] == SHARED_STAFF
        DeckRegistry(tmp_path / "cafe").add_tag("house", "palourde", "04AABBCC", "clam#1")
        assert staffer.post("/admin/api/decks/share", {"name": "house"}) == (
            200, {"shared": shared_deck_topic("house")})
        assert staffer.post("/admin/api/decks/share", {"name": "nope"})[0] == 400
    finally:
        server.close()


def test_with_the_broker_gone_the_change_is_kept_and_the_tables_not_told(tmp_path, broker):
    settings = settings_for(broker, table="cafe")
    server = office(tmp_path, settings)
    try:
        staffer = Staffer(server)
        assert staffer.login() == 200
        broker.stop()
        status, said = staffer.post("/admin/api/players/add", {"name": "Zoé"})
        assert status == 200 and "shared" not in said and said["not_shared"].count("\n") == 0
        assert [p.name for p in Roster(tmp_path).players()] == ["Zoé"]
    finally:
        server.close()
