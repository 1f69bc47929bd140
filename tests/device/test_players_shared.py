"""The café's roster shared between tables: `tabletop players publish` on one table, and every
other table merges it as it hears it (against a real Mosquitto; without it those tests skip).
Names are only added; a forged or hostile roster changes nothing."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.cli import main
from device.decks.registry import DeckRegistry
from device.fleet.envelope import ADMIN, Refused, Signer, Trust
from device.fleet.retained import send_retained
from device.fleet.shared import SharedRoster, read_shared, roster_message
from device.fleet.topics import SHARED_PLAYERS
from device.players.roster import FILE, Player, Roster, new_player
from tests.device.fleet_tables import (
    ADMIN_KEY,
    CafeTable,
    admin_private,
    admin_signer,
    cafe_admin,
    settings_for,
    table_signer,
)
from tests.device.mosquitto import running_broker

from .test_fleet import config_file
from .test_players import CARD, cafe

WAIT_S = 30.0


def admin_signer_in_memory() -> Signer:
    return Signer(admin_private(), ADMIN, table_signer("-").counter)


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


def test_a_shared_roster_adds_only_what_this_table_lacks(tmp_path):
    here = Roster(tmp_path)
    here.add(new_player("Bob"))
    here.add(new_player("Dee"))
    DeckRegistry(tmp_path).add_tag("cafe", "palourde", "04FFEEDD", "clam#1")
    shared = [Player("Bob", "Bob", (CARD,)), Player("Eve", "Eve", ("04FFEEDD",)),
              Player("Deedee", "dee"), Player("Annabelle-Marie", "Anna")]
    registry = DeckRegistry(tmp_path)

    def taken(uid: str) -> bool:                # Eve's card is a clam of a deck here
        return registry.lookup(uid) is not None

    assert here.merge(shared, taken) == ["Bob", "Eve", "Annabelle-Marie"]
    assert here.players() == [Player("Dee", "Dee"), Player("Bob", "Bob", (CARD,)),
                              Player("Eve", "Eve"), Player("Annabelle-Marie", "Anna")]
    assert here.merge(shared, taken) == []                    # heard again: nothing new


def roster_payload(text: str, signer) -> bytes:
    return signer.seal(SHARED_PLAYERS, {"table": "t9", "at": "now", "roster": text})


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=120) | st.sampled_from([
    '[[player]]\nname = "Ann"\n', '[[player]]\nname = "a b"\n', '[[player]]\nname = "P1"\n',
    '[[player]]\nname = "Ann"\n[[player]]\nname = "ann"\n', 'player = 3\n']))
def test_any_shared_roster_reads_or_is_refused(text):
    trust = Trust.of(ADMIN_KEY, None)
    try:
        found, _ = read_shared(SHARED_PLAYERS, roster_payload(text, admin_signer_in_memory()), trust)
    except Refused:
        found = None
    assert found is None or isinstance(found, SharedRoster)
    with pytest.raises(Refused):
        read_shared(SHARED_PLAYERS, roster_payload(text, table_signer("t9")), trust)


def test_a_roster_published_by_the_cafe_is_merged_by_a_table(tmp_path, broker, capsys):
    cafe(tmp_path / "a")
    cafe_admin(tmp_path / "a")
    table_a = ["--config", str(config_file(tmp_path, broker, "table-a")),
               "--state-dir", str(tmp_path / "a")]
    assert main(["players", "publish", *table_a]) == 0
    assert capsys.readouterr().out == "Shared the roster from table-a as tabletop/shared/players\n"
    table = CafeTable(tmp_path / "b", "table-b", settings_for(broker))
    assert table.heard.wait(WAIT_S)
    table.play(["wait 1"])                                      # a tick merges it
    assert [(p.short, p.cards) for p in Roster(tmp_path / "b").players()] == [
        ("Anna", ()), ("Cy", ()), ("Bob", (CARD,))]
    assert main(["fleet", "shared", *table_a]) == 0
    assert "players   3 names             from table-a" in capsys.readouterr().out
    table.link.close(flush_s=0)


def test_a_forged_roster_changes_nothing(tmp_path, broker, caplog):
    forger = Roster(tmp_path / "forger")
    forger.add(new_player("Mallory"))
    settings_ = settings_for(broker)
    topic, signed = roster_message(forger, "t9", "now", admin_signer(tmp_path))
    unsigned = {k: v for k, v in json.loads(signed).items()
                if k not in ("sig", "publisher", "topic", "counter")}
    table = CafeTable(tmp_path / "t1", "t1", settings_)
    assert table.link.wait_up(WAIT_S)
    for message in (roster_message(forger, "t9", "now", table_signer("t9")),
                    (topic, json.dumps(unsigned).encode())):
        table.heard.clear()
        send_retained(settings_, [message])
        assert table.heard.wait(WAIT_S)
        table.play(["wait 1"])
    assert not (tmp_path / "t1" / FILE).exists()
    refusals = [r.message for r in caplog.records if "refused the shared data" in r.message]
    assert refusals == ["fleet: refused the shared data on tabletop/shared/players: shared data "
                        "not signed by the café's admin key",
                        "fleet: refused the shared data on tabletop/shared/players: unsigned"]
    table.link.close(flush_s=0)


def test_publishing_no_roster_or_away_from_the_cafes_machine_is_one_line(tmp_path, broker, capsys):
    config = config_file(tmp_path, broker, "table-a")
    args = ["--config", str(config), "--state-dir", str(tmp_path / "a")]
    assert main(["players", "publish", *args]) == 2
    assert "no players here" in capsys.readouterr().err
    cafe(tmp_path / "a")                                       # a table: no admin key
    assert main(["players", "publish", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "no admin key" in err and "fleet keys --admin" in err

