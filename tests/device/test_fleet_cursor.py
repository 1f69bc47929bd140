"""The journal feed's cursor goes to disk once a pass (and every KEEP_EVERY events of a long
one), and an event counts as acknowledged only once the cursor past it is on disk."""
from __future__ import annotations

import json
import threading

from device.fleet import journal_feed
from device.fleet.journal_feed import CURRENT, CURSOR_FILE, KEEP_EVERY, JournalFeed
from device.storage.journal import FORMAT

EVENTS = 2 * KEEP_EVERY + 20


class Acking:
    """A link up that acknowledges the first `taken` sends, then no more (the broker went)."""

    def __init__(self, taken: int = 10**9) -> None:
        self.up = threading.Event()
        self.up.set()
        self.taken, self.sent = taken, []

    def send_acked(self, topic: str, payload: bytes, timeout: float) -> bool:
        if len(self.sent) == self.taken:
            return False
        self.sent.append(json.loads(payload)["seq"])
        return True


def a_game(folder, events: int = EVENTS) -> None:
    header = {"journal": FORMAT, "id": "g1", "game": "palourde", "started": "2030-01-02T20:00"}
    lines = [header] + [{"op": "event", "seq": n, "event": {"type": "tap", "card": f"clam#{n}"}}
                        for n in range(1, events + 1)]
    (folder / CURRENT).write_text("".join(json.dumps(line) + "\n" for line in lines))


def kept_writes(monkeypatch, feed: JournalFeed) -> list[tuple[dict, int]]:
    """Each cursor the feed writes, with the events it had counted acknowledged as it did."""
    writes: list[tuple[dict, int]] = []
    write = journal_feed.write_atomic

    def counting(path, text):
        write(path, text)
        writes.append((json.loads(text), feed.acknowledged))
    monkeypatch.setattr(journal_feed, "write_atomic", counting)
    return writes


def test_a_long_pass_keeps_its_cursor_every_so_many_events_and_at_its_end(tmp_path, monkeypatch):
    a_game(tmp_path)
    link = Acking()
    feed = JournalFeed(link, "t1", tmp_path, lambda: "now")
    writes = kept_writes(monkeypatch, feed)
    assert feed.send_pending() == EVENTS and link.sent == list(range(1, EVENTS + 1))
    # counted only after the cursor past them is on disk
    assert writes == [({"g1": KEEP_EVERY}, 0), ({"g1": 2 * KEEP_EVERY}, KEEP_EVERY),
                      ({"g1": EVENTS}, 2 * KEEP_EVERY)]
    assert feed.acknowledged == EVENTS and feed.wait_acknowledged(EVENTS, 0)
    assert feed.send_pending() == 0 and len(writes) == 3           # nothing moved: no write


def test_a_pass_cut_short_keeps_what_the_broker_took_and_the_next_start_goes_on(tmp_path,
                                                                              monkeypatch):
    a_game(tmp_path)
    taken = KEEP_EVERY + 7
    feed = JournalFeed(Acking(taken), "t1", tmp_path, lambda: "now")
    writes = kept_writes(monkeypatch, feed)
    assert feed.send_pending() == taken
    assert [cursor for cursor, _ in writes] == [{"g1": KEEP_EVERY}, {"g1": taken}]
    assert json.loads((tmp_path / CURSOR_FILE).read_text()) == {"g1": taken}
    assert feed.acknowledged == taken and not feed.wait_acknowledged(taken + 1, 0)
    again = Acking()
    assert JournalFeed(again, "t1", tmp_path, lambda: "now").send_pending() == EVENTS - taken
    assert again.sent == list(range(taken + 1, EVENTS + 1))
