"""The journal is the outbox, against a real Mosquitto: a table stopped while the broker is
away delivers every event once it runs again, and sends none twice."""
from __future__ import annotations

import random
import threading

from device.fleet.journal_feed import journals, pending
from device.fleet.link import Link
from tests.device.fleet_tables import Table, random_game_lines, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import GAME_LIMIT, WAIT_S


class Heard:
    """Every event message a consumer receives, keyed as consumers dedupe them."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, str, int]] = []
        self._more = threading.Condition()

    def receive(self, _topic: str, payload: bytes) -> None:
        from device.fleet.topics import decode
        data = decode(payload)
        with self._more:
            self.keys.append((data["table"], data["game_id"], data["seq"]))
            self._more.notify_all()

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
        before = Table(folder, "t1", settings_for(broker))
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
        after = Table(folder, "t1", settings_for(broker))  # the same table, started again
        assert after.feed.wait_acknowledged(len(expected) - 3, WAIT_S)
        assert before.feed.acknowledged + after.feed.acknowledged == len(expected)  # none twice
        assert heard.wait_for(len(expected))
        # the broker may hand its subscriber a message again (QoS 1, a broker restart):
        # keyed by (table, game_id, seq), the consumer has every event
        assert set(heard.keys) == set(expected)
        assert after.feed.cursor.done == {game: seq for _, game, seq in expected}
        after.plugin.close()
        consumer.close(flush_s=0)
