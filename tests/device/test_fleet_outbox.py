"""The journal is the outbox, against a real Mosquitto: a table stopped while the broker is
away delivers every event and every finished game once it runs again, and sends none twice."""
from __future__ import annotations

import json
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.fleet.journal_feed import FINISHED_DIR, JournalFeed, journals, pending
from device.fleet.link import Link
from device.fleet.topics import decode
from tests.device.fleet_tables import CafeTable, random_game_lines, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import GAME_LIMIT, WAIT_S

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py


class Heard:
    """Every event message a consumer receives, keyed as consumers dedupe them."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, str, int]] = []
        self._more = threading.Condition()

        self.finished: list[dict] = []

    def receive(self, topic: str, payload: bytes) -> None:
        data = decode(payload)
        with self._more:
            if topic.endswith("/finished"):
                self.finished.append(data)
            else:
                self.keys.append((data["table"], data["game_id"], data["seq"]))
            self._more.notify_all()

    def wait_finished(self, count: int) -> bool:
        with self._more:
            return self._more.wait_for(lambda: len(self.finished) >= count, WAIT_S)

    def wait_for(self, count: int) -> bool:
        with self._more:
            return self._more.wait_for(lambda: len(set(self.keys)) >= count, WAIT_S)


def test_a_table_stopped_during_an_outage_delivers_every_event_after_it_restarts(tmp_path):
    with running_broker(tmp_path) as broker:
        heard = Heard()
        consumer = Link(settings_for(broker), "consumer", subscriptions=("tabletop/+/events",),
                        on_message=heard.receive, clean=False).start()
        assert consumer.wait_up(WAIT_S)
        folder, rng = tmp_path / "t1", random.Random(11)
        before = CafeTable(folder, "t1", settings_for(broker))
        assert before.link.wait_up(WAIT_S)
        before.start("palourde", ["Ann", "Bob"])
        before.play(random_game_lines(before.app, rng, 3))
        assert heard.wait_for(3) and before.feed.wait_acknowledged(3, WAIT_S)
        broker.stop()                                     # a long outage: the table plays on
        before.play(random_game_lines(before.app, rng, GAME_LIMIT))
        before.play(["press select"])                     # archived
        before.start("palourde", ["Cy", "Dee"])
        before.play(random_game_lines(before.app, rng, 4))
        before.plugin.close()                             # the table stops, broker still away
        broker.start()
        expected = [("t1", game, seq) for game, seq, _, _ in pending(journals(folder), {})]
        assert len(expected) > 10 and len({game for _, game, _ in expected}) == 2
        after = CafeTable(folder, "t1", settings_for(broker))  # the same table, started again
        assert after.feed.wait_acknowledged(len(expected) - 3, WAIT_S)
        assert before.feed.acknowledged + after.feed.acknowledged == len(expected)  # none twice
        assert heard.wait_for(len(expected))
        # the broker may hand its subscriber a message again (QoS 1, a broker restart):
        # keyed by (table, game_id, seq), the consumer has every event
        assert set(heard.keys) == set(expected)
        assert after.feed.cursor.done == {game: seq for _, game, seq in expected}
        after.plugin.close()
        consumer.close(flush_s=0)


def test_a_game_finished_with_the_broker_away_arrives_once_after_restarts(tmp_path):
    """The broker is away as the game ends and is left; the table stops, starts again with
    the broker back: one `finished`. Started once more, it sends no second one."""
    with running_broker(tmp_path) as broker:
        heard = Heard()
        consumer = Link(settings_for(broker), "consumer", on_message=heard.receive, clean=False,
                        subscriptions=("tabletop/+/events", "tabletop/+/finished")).start()
        assert consumer.wait_up(WAIT_S)
        folder, rng = tmp_path / "t1", random.Random(5)
        before = CafeTable(folder, "t1", settings_for(broker))
        assert before.link.wait_up(WAIT_S)
        before.start("palourde", ["Ann", "Bob"])
        before.play(random_game_lines(before.app, rng, 2))
        assert before.feed.wait_acknowledged(2, WAIT_S)
        broker.stop()
        before.play(random_game_lines(before.app, rng, GAME_LIMIT))
        before.play(["press select", "wait 1"])             # the result left: finished
        assert len(list((folder / FINISHED_DIR).iterdir())) == 1
        before.plugin.close()                               # stopped, the broker still away
        broker.start()
        after = CafeTable(folder, "t1", settings_for(broker))
        assert heard.wait_finished(1)
        (finished,) = heard.finished
        assert finished["table"] == "t1" and finished["game"] == "palourde" and finished["winners"]
        after.plugin.close()
        assert after.feed.finished_acknowledged == 1 and not list((folder / FINISHED_DIR).iterdir())

        again = CafeTable(folder, "t1", settings_for(broker))   # started once more: nothing again
        assert again.link.wait_up(WAIT_S)
        again.start("palourde", ["Cy", "Dee"])
        again.play(random_game_lines(again.app, rng, 1))
        expected = len(list(pending(journals(folder), {})))
        # finished games leave before events in each pass, from the same client: a second
        # `finished` would reach the consumer before this game's first event
        assert heard.wait_for(expected)
        assert len(heard.finished) == 1 and again.feed.finished_acknowledged == 0
        again.plugin.close()
        consumer.close(flush_s=0)


class AckingLink:
    """What the feed needs of a link: up, and an acknowledged send."""

    def __init__(self) -> None:
        self.up = threading.Event()
        self.up.set()
        self.sent: list[tuple[str, bytes]] = []

    def send_acked(self, topic: str, payload: bytes, timeout: float) -> bool:
        self.sent.append((topic, payload))
        return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                         st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8),
                                         max_size=4).map(lambda d: json.dumps(d).encode())))
def test_a_damaged_finished_message_is_set_aside_and_the_next_one_still_goes(tmp_path_factory,
                                                                            content):
    folder = tmp_path_factory.mktemp("table")
    link = AckingLink()
    feed = JournalFeed(link, "t1", folder, lambda: "now")
    (folder / FINISHED_DIR).mkdir()
    (folder / FINISHED_DIR / "000001.json").write_bytes(content)
    good = json.dumps({"schema": 1, "table": "t1", "at": "2030-01-02T20:15:00+01:00",
                       "game": "palourde"}).encode()
    feed.keep_finished(good)
    feed.send_pending()
    fine = decode(content)
    fine = fine is not None and isinstance(fine.get("table"), str) \
        and isinstance(fine.get("at"), str)
    assert [payload for _, payload in link.sent] == ([content] if fine else []) + [good]
    assert not list((folder / FINISHED_DIR).iterdir())
    assert fine or len(list((folder / "unreadable").glob("*.json"))) == 1   # kept, with why
