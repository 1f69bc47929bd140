"""Which tables lack a game's deck: each table tells its decks in its signed state, and the back
office lists, per game, the tables with no complete deck of its family; a table's deck list that
is anything else is refused whole."""
from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.decks.registry import DeckRegistry
from device.fleet import schema
from device.fleet.table_state import DECKS_EVERY_S
from device.fleet.topics import decode, encode, table_topic
from tests.device.backoffice_client import Staffer, serve
from tests.device.fleet_tables import CafeTable, a_deck, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import dashboard_feed
from tests.device.test_fleet_dashboard import CLOCK

WAIT_S = 30.0
NOW = datetime.datetime.fromisoformat(CLOCK)


def without(answer: dict) -> dict[str, list[str]]:
    return {game["game"]: game["without"] for game in answer["games"]}


def test_the_back_office_lists_per_game_the_tables_without_its_deck_over_mosquitto(tmp_path):
    with running_broker(tmp_path) as broker:
        server, _, _ = serve(tmp_path / "cafe")
        feed = dashboard_feed(broker, server.board)
        a_deck(DeckRegistry(tmp_path / "t1"), "house")              # complete
        DeckRegistry(tmp_path / "t2").add_tag("half", "palourde", "04AABBCC", "clam#1")
        tables = [CafeTable(tmp_path / t, f"table-{t[1]}", settings_for(broker)) for t in ("t1", "t2")]
        try:
            for table in tables:
                table.play(["wait 1"])
            board = server.board
            view = board.view()
            while sum(1 for t in view["tables"] if t["state"] and "decks" in t["state"]) < 2:
                assert board.wait(view["version"], WAIT_S), broker.log[-1500:]
                view = board.view()
            staffer = Staffer(server)
            assert staffer.get("/admin/api/decks/lacking")[0] == 401
            assert staffer.login() == 200
            status, answer = staffer.get("/admin/api/decks/lacking")
            assert status == 200 and answer["untold"] == []
            assert without(answer) == {"palourde": ["table-2"], "auberge": ["table-1", "table-2"],
                                       "tribord": ["table-1", "table-2"],
                                       "tamalou": ["table-1", "table-2"], "flouk": ["table-1", "table-2"]}

            a_deck(DeckRegistry(tmp_path / "t2"), "house2")         # learnt at table 2
            tables[1].play([f"wait {DECKS_EVERY_S + 1:g}"])      # the decks are read again
            view = board.view()                                    # before the look: no change missed
            while without(staffer.get("/admin/api/decks/lacking")[1])["palourde"]:
                assert board.wait(view["version"], WAIT_S), broker.log[-1500:]
                view = board.view()
        finally:
            for table in tables:
                table.link.close(flush_s=0)
            feed.close(flush_s=0)
            server.close()


def state_with(table: str = "t1", **fields) -> bytes:
    return encode({"table": table, "at": CLOCK, "activity": "idle", "game": None, "faults": {},
                   **fields})


def test_a_table_that_never_told_its_decks_is_named_apart(tmp_path):
    server, _, _ = serve(tmp_path)
    try:
        server.board.receive(table_topic("old", "state"), state_with("old"))
        staffer = Staffer(server)
        assert staffer.login() == 200
        status, answer = staffer.get("/admin/api/decks/lacking")
        assert status == 200 and answer["untold"] == ["old"]
        assert all(game["without"] == [] for game in answer["games"])
    finally:
        server.close()


@pytest.mark.parametrize("decks", [
    "house", [{"name": "<img src=x onerror=alert(1)>", "family": "palourde", "complete": True}],
    [{"name": "house", "family": "palourde", "complete": "yes"}], [{"name": "house"}],
    [{"name": "house", "family": "palourde\u202e", "complete": True}],
    [{"name": f"d{n}", "family": "palourde", "complete": True} for n in range(65)]])
def test_a_deck_list_that_is_anything_else_is_refused_and_changes_nothing(tmp_path, decks):
    server, _, _ = serve(tmp_path)
    try:
        board = server.board
        good = [{"name": "house", "family": "palourde", "complete": True}]
        board.receive(table_topic("t1", "state"), state_with(decks=good))
        board.receive(table_topic("t1", "state"), state_with(decks=decks))
        assert board.view()["tables"][0]["state"]["decks"] == good
    finally:
        server.close()


@given(st.recursive(st.none() | st.booleans() | st.text(max_size=40) | st.integers(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["name", "family", "complete", "x"]), inner, max_size=4),
                    max_leaves=12))
@settings(max_examples=60)
def test_any_deck_list_is_taken_whole_or_refused(decks):
    try:
        taken = schema.state(decode(state_with(decks=decks)), NOW)["decks"]
    except schema.Refused:
        return
    assert all(set(d) == {"name", "family", "complete"} and isinstance(d["complete"], bool)
               for d in taken)
