"""Freshness: a receiver takes nothing older than what it has seen, whatever an attacker replays,
reorders or moves to another topic; a publisher's counter only grows, restarts and reinstalls
included."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.fleet.counter import BLOCK, Counter
from device.fleet.envelope import ADMIN, Refused, Signer, Trust
from device.fleet.freshness import NEW, REPEAT, STALE, Freshness
from device.fleet.topics import SHARED_PLAYERS, SHARED_STAFF, shared_deck_topic, table_topic
from tests.device.fleet_tables import ADMIN_KEY, AnyTable, admin_private, admin_signer, table_signer

TOPICS = (SHARED_STAFF, SHARED_PLAYERS, shared_deck_topic("cafe1"), shared_deck_topic("evil"),
          table_topic("t1", "state"), table_topic("t1", "online"), table_topic("t2", "state"))


def recorded() -> list[tuple[str, bytes]]:
    """What an attacker records off the broker: each publisher's messages on its own topics,
    in the order they were sent (so in the order of their counters)."""
    cafe = Signer(admin_private(), ADMIN, table_signer("-").counter)
    messages = []
    for n in range(4):
        for topic in TOPICS:
            if topic.startswith("tabletop/shared/"):
                messages.append((topic, cafe.seal(topic, {"table": "cafe", "at": f"{n}", "n": n})))
            else:
                table = topic.split("/")[1]
                messages.append((topic, table_signer(table).seal(topic, {"table": table, "n": n})))
    return messages


RECORDED = recorded()


@given(st.lists(st.tuples(st.integers(0, 4 * len(TOPICS) - 1), st.sampled_from(TOPICS)),
                max_size=80))
def test_replayed_reordered_and_moved_messages_never_take_anything_older(deliveries):
    """Any sequence of the recorded messages, each on any topic: a message is taken only on
    the topic it was signed for, and only when newer than what its publisher last said
    there, or as that very message again (a retained one at each subscription)."""
    trust = Trust.of(ADMIN_KEY, Freshness(None))
    trust.tables = AnyTable()
    taken: dict[tuple[str, str], tuple[int, bytes]] = {}
    for index, topic in deliveries:
        signed_for, payload = RECORDED[index]
        data = json.loads(payload)
        was = taken.get((data["publisher"], topic))
        try:
            _, verdict = trust.open(topic, payload)
        except Refused:
            assert topic != signed_for or (was is not None and data["counter"] <= was[0]
                                           and (data["counter"], payload) != was)
            continue
        assert topic == signed_for
        if verdict == NEW:
            assert was is None or data["counter"] > was[0]
            taken[(data["publisher"], topic)] = (data["counter"], payload)
        else:
            assert verdict == REPEAT and was == (data["counter"], payload)


def test_after_a_restart_a_receiver_takes_none_of_what_it_took_before_again_as_new(tmp_path):
    """Every recorded message once, the receiver restarted (its counters on disk), then all
    of them again in reverse: only the latest of each topic comes back, as a repeat."""
    trust = Trust.of(ADMIN_KEY, Freshness.at(tmp_path))
    trust.tables = AnyTable()
    assert all(trust.open(topic, payload)[1] == NEW for topic, payload in RECORDED)
    trust.seen.close()
    trust.seen = Freshness.at(tmp_path)
    latest = {topic: payload for topic, payload in RECORDED}
    for topic, payload in reversed(RECORDED):
        if payload == latest[topic]:
            assert trust.open(topic, payload)[1] == REPEAT
        else:
            with pytest.raises(Refused, match="a replay"):
                trust.open(topic, payload)


def test_the_counter_grows_across_restarts_and_a_reinstalled_state_dir(tmp_path):
    now = [1_000]
    first = Counter(tmp_path / "a", lambda: now[0])
    numbers = [first.next() for _ in range(5)]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1_000
    again = Counter(tmp_path / "a", lambda: 0)             # restarted, its clock not set yet
    assert again.next() > numbers[-1] and again.next() >= 1_000 + BLOCK
    now[0] = 5_000_000                                    # reinstalled: an empty state dir
    assert Counter(tmp_path / "b", lambda: now[0]).next() >= 5_000_000


def test_a_counter_file_that_does_not_read_is_set_aside_and_the_clock_still_leads(tmp_path):
    (tmp_path / "fleet-counter.json").write_text('{"ceiling": "many"}')
    assert Counter(tmp_path, lambda: 77).next() == 77
    assert (tmp_path / "fleet-counter.json").exists() or (tmp_path / "unreadable").exists()


def test_a_repeat_is_the_same_bytes_at_the_same_counter(tmp_path):
    seen = Freshness.at(tmp_path)
    assert seen.admit("t1", "x", 5, b"a") == NEW
    assert seen.admit("t1", "x", 5, b"a") == REPEAT
    assert seen.admit("t1", "x", 5, b"b") == STALE          # a second message at one counter
    assert seen.admit("t1", "x", 4, b"c") == STALE
    assert seen.admit("t1", "y", 4, b"c") == NEW            # per topic
    assert seen.admit("t2", "x", 1, b"c") == NEW            # per publisher
    seen.close()
    assert Freshness.at(tmp_path).highest("t1", "x") == 5   # on disk


@pytest.mark.parametrize("topic", [SHARED_STAFF, table_topic("t1", "state")])
def test_a_message_signed_for_one_topic_is_refused_on_any_other(tmp_path, topic):
    trust = Trust.of(ADMIN_KEY, Freshness(None))
    trust.tables = AnyTable()
    signer = admin_signer(tmp_path) if topic == SHARED_STAFF else table_signer("t1")
    payload = signer.seal(topic, {"table": "t1"})
    for other in TOPICS:
        if other != topic:
            with pytest.raises(Refused):
                trust.open(other, payload)
    assert trust.open(topic, payload)[1] == NEW


def test_a_state_dir_that_cannot_be_written_costs_no_message(tmp_path, caplog):
    """A state dir under a file (as a full or read-only disk would be): the counter still
    grows from the clock, and the receiver still refuses replays until the next start."""
    (tmp_path / "file").write_text("")
    nowhere = tmp_path / "file" / "state"
    counter = Counter(nowhere, lambda: 5)
    assert [counter.next() for _ in range(3)] == [5, 6, 7]
    seen = Freshness.at(nowhere)
    assert seen.admit("t1", "x", 2, b"a") == NEW and seen.admit("t1", "x", 1, b"b") == STALE
    assert sum("not kept" in r.getMessage() for r in caplog.records) == 2   # one line each


def test_the_fleet_does_not_start_where_its_key_cannot_be_kept(tmp_path, caplog):
    from device.config import parse_config
    from device.fleet.plugin import open_fleet
    (tmp_path / "file").write_text("")
    config = parse_config('[fleet]\nenabled = true\nhost = "127.0.0.1"\nport = 1\n')
    assert open_fleet(config, tmp_path / "file" / "state", lambda: "now") is None
    assert "the table's key cannot be kept" in caplog.text
