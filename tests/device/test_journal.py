"""The journal and the store: what is saved, what resumes, what is kept aside, what is archived."""
from __future__ import annotations

import errno
import json
import logging
import shutil
from collections import Counter

import pytest

import engine
from device.bench.journal import journal_with_events, resume_seconds
from device.sim.clock import VirtualClock
from device.storage import journal
from device.storage.journal import JournalError
from device.storage.store import GameStore
from engine import Session, Tap, make_config
from engine.core.codec import state_hash
from engine.core.session import Op

from .table import SimTable

NOW = "2024-05-04T12:40:00+02:00"
LATER = "2024-05-04T13:05:30+02:00"
PLAYED_S = 25 * 60 + 30                 # from NOW to LATER


def palourde() -> Session:
    spec = engine.get("palourde")
    return Session(spec, make_config(spec, ["Ann", "Bob"]))


def played(store: GameStore, session: Session, cards=("clam#1", "clam#2", "crab#1")) -> None:
    """Tap cards, journaling each accepted one with its input number."""
    for number, card in enumerate(cards, 1):
        session.play(Tap(card))
        assert store.record("event", Tap(card), session.state, number) is None


def started(tmp_path) -> tuple[GameStore, Session]:
    store, session = GameStore(tmp_path, clock=VirtualClock(wall=NOW)), palourde()
    assert store.start(session, "sim-palourde") is None
    return store, session


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_header_then_one_line_per_op_with_its_hash_and_input(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    session.undo()
    store.record("undo", None, session.state, 4)
    session.redo()
    store.record("redo", None, session.state, 5)
    header, *records = lines(store.current)
    assert header["game"] == "palourde" and header["deck"] == "sim-palourde"
    assert header["config"]["players"] == ["Ann", "Bob"] and header["started"] == NOW
    assert header["rules_version"] == 1 and len(header["id"]) == 32
    assert [r["op"] for r in records] == ["event", "event", "event", "undo", "redo"]
    assert [r["in"] for r in records] == [1, 2, 3, 4, 5]
    assert records[-1]["hash"] == state_hash(session.state)


def test_resume_replays_to_the_same_state_with_the_last_message(tmp_path):
    store, session = started(tmp_path)
    played(store, session, ("clam#1", "clam#2"))
    store.close()
    resumed, problem = GameStore(tmp_path).resume()
    assert problem is None and not resumed.torn
    assert resumed.session.state == session.state
    expected = Session(session.spec, session.config)
    expected.play(Tap("clam#1"))
    assert resumed.effects == expected.play(Tap("clam#2")).effects != ()
    assert journal.last_input(store.current) == 2


def test_a_torn_last_line_is_dropped_reported_and_cut_off(tmp_path, caplog):
    store, session = started(tmp_path)
    played(store, session)
    store.close()
    whole = store.current.read_bytes()
    store.current.write_bytes(whole[:-20])
    assert journal.last_input(store.current) == 2
    with caplog.at_level(logging.WARNING):
        resumed, problem = GameStore(tmp_path).resume()
    assert problem is None and resumed.torn
    assert len(resumed.session.events) == 2
    assert "torn" in caplog.text
    assert store.current.read_bytes() == whole[:whole.rindex(b"\n", 0, -1) + 1]


@pytest.mark.parametrize("damage, reason", [
    (lambda h, r: r[1].update(hash="0" * 64), "ui.journal_mismatch"),
    (lambda h, r: h.update(rules_version=99), "ui.journal_rules"),
    (lambda h, r: h.update(game="chess"), "ui.journal_unknown_game"),
    (lambda h, r: r[0].update(event={"type": "tap", "card": "anchor"}), "ui.journal_mismatch"),
    (lambda h, r: r[0].pop("op"), "ui.journal_damaged"),
    (lambda h, r: r.insert(1, {"op": "end", "result": "finished", "at": NOW}), "ui.journal_damaged"),
])
def test_a_journal_that_does_not_fit_is_kept_aside_never_resumed(tmp_path, caplog, damage, reason):
    store, session = started(tmp_path)
    played(store, session)
    store.close()
    header, *records = lines(store.current)
    damage(header, records)
    text = "".join(json.dumps(r) + "\n" for r in [header, *records])
    store.current.write_text(text)
    with caplog.at_level(logging.ERROR):
        resumed, problem = GameStore(tmp_path).resume()
    assert resumed is None and problem.key == reason
    assert not store.current.exists()
    assert (tmp_path / "unreadable" / "000001-current.jsonl").read_text() == text
    assert "kept aside" in caplog.text


def test_a_damaged_line_before_the_end_is_not_taken_for_a_torn_one(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    store.close()
    text = store.current.read_text().splitlines(keepends=True)
    store.current.write_text("".join(text[:2] + ['{"op": "ev\n'] + text[3:]))
    with pytest.raises(JournalError) as caught:
        journal.resume(store.current)
    assert caught.value.reason.key == "ui.journal_damaged"


def test_a_new_game_archives_the_unfinished_one_as_abandoned(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    store.clock.advance(PLAYED_S)
    store.start(palourde(), None, 9)
    archived = tmp_path / "archive" / "000001-abandoned.jsonl"
    assert lines(archived)[-1] == {"op": "end", "result": "abandoned", "at": LATER,
                                   "elapsed": PLAYED_S}
    assert journal.last_input(store.current) == 9


def test_a_finished_game_ends_with_its_time_and_is_handed_to_the_history(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    seen = []
    store.on_finished.append(seen.append)
    store.clock.advance(PLAYED_S)
    path = store.finish(abandoned=False, source=7)
    assert seen == [path] and path.name == "000001-finished.jsonl"
    assert lines(path)[-1] == {"op": "end", "result": "finished", "at": LATER, "in": 7,
                               "elapsed": PLAYED_S}
    assert journal.resume(path).end["at"] == LATER
    assert not store.current.exists()


def test_an_end_saved_before_a_power_cut_is_archived_on_start(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    store.journal.append(journal.end_record(False, LATER, 4))
    store.close()
    seen = []
    again = GameStore(tmp_path)
    again.on_finished.append(seen.append)
    assert again.resume() == (None, None)
    assert [p.name for p in seen] == ["000001-finished.jsonl"]


def test_retention_keeps_the_newest_journals_and_never_trims_aside(tmp_path):
    store = GameStore(tmp_path, retention=3)
    (tmp_path / "unreadable").mkdir()
    (tmp_path / "unreadable" / "000001-current.jsonl").write_text("kept")
    for _ in range(5):
        store.start(palourde(), None)
        store.finish(abandoned=True)
    assert [p.name[:6] for p in store.archived()] == ["000003", "000004", "000005"]
    assert (tmp_path / "unreadable" / "000001-current.jsonl").exists()


def full_disk_for(monkeypatch, refusals: int):
    """The next `refusals` writes get half their bytes on disk, then ENOSPC (as a full disk does)."""
    real = journal._write_all
    left = [refusals]

    def write(fd, data):
        if left[0] > 0:
            left[0] -= 1
            real(fd, data[:len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd, data)
    monkeypatch.setattr(journal, "_write_all", write)


def test_a_full_disk_refuses_lines_whole_and_cuts_off_half_writes(tmp_path, monkeypatch):
    store, session = started(tmp_path)
    played(store, session, ("clam#1",))
    saved = store.current.read_bytes()
    full_disk_for(monkeypatch, 2)
    for number in (2, 3):                     # proposed, refused: the session never takes it
        answer = session.propose(Op("event", Tap("clam#2")))
        assert store.record("event", Tap("clam#2"), answer.state, number) == \
            "No space left on device"
        assert store.current.read_bytes() == saved
    assert store.retry() is None
    session.play(Tap("clam#2"))                 # the player repeats it: now it is saved
    assert store.record("event", Tap("clam#2"), session.state, 4) is None
    assert [r.get("in") for r in lines(store.current)] == [None, 1, 4]
    assert journal.resume(store.current).session.state == session.state


def test_a_header_the_disk_refused_is_written_once_the_disk_takes_writes(
        tmp_path, monkeypatch):
    def refuse(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(journal, "write_atomic", refuse)
    store, session = GameStore(tmp_path), palourde()
    assert store.start(session, None) == "No space left on device"
    answer = session.propose(Op("event", Tap("clam#1")))
    assert store.record("event", Tap("clam#1"), answer.state, 1) is not None
    assert not store.current.exists()
    monkeypatch.undo()
    assert store.retry() is None
    assert journal.resume(store.current).records == []
    session.play(Tap("clam#1"))
    assert store.record("event", Tap("clam#1"), session.state, 2) is None
    assert len(journal.resume(store.current).records) == 1


def test_last_input_counts_the_header_of_a_game_started_from_the_menus(tmp_path):
    store = GameStore(tmp_path)
    store.start(palourde(), None, source=6)
    assert journal.last_input(store.current) == 6
    assert journal.last_input(tmp_path / "missing.jsonl") == 0


def test_the_bench_journal_resumes_with_undo_and_redo_records(tmp_path):
    path = journal_with_events(tmp_path / "bench.jsonl", 120)
    resumed = journal.resume(path)
    kinds = Counter(r["op"] for r in resumed.records)
    assert sum(kinds.values()) == 120 and kinds["undo"] and kinds["redo"]
    assert resume_seconds(path, repeat=1) > 0


def test_a_resumed_game_is_back_as_it_was_with_its_last_message(tmp_path):
    before = SimTable(tmp_path).start("palourde", "Ann,Bob").run("tap clam#1\ntap clam#2")
    before.app.store.close()
    after = SimTable(tmp_path)
    after.app.resume_game()
    assert after.screen.lines == before.screen.lines == ("Clam + Clam!", "Ann +2 clams -> 2",
                                                         "Both to your Basket", "Bob plays next")
    assert after.screen.header_right == "Game resumed"
    for table in (before, after):               # the button only clears the message, twice over
        table.run("press down")
    assert after.screen == before.screen and after.state() == before.state()


def test_a_game_kept_aside_says_why_on_screen(tmp_path):
    store, session = started(tmp_path)
    played(store, session)
    store.close()
    header, *records = lines(store.current)
    records[1]["hash"] = "0" * 64
    store.current.write_text("".join(json.dumps(r) + "\n" for r in [header, *records]))
    table = SimTable(tmp_path)
    table.app.resume_game()
    assert " ".join(table.screen.lines) == "Saved game kept aside: line 3 does not replay"
    assert table.app.session is None


def test_a_torn_last_line_is_reported_in_the_header_until_the_next_input(tmp_path, caplog):
    state = tmp_path / "table"
    before = SimTable(state).start("palourde", "Ann,Bob").run("tap clam#1\ntap clam#2\nwait 2")
    before.app.store.close()
    current = state / "current.jsonl"
    current.write_bytes(current.read_bytes()[:-9])
    shutil.copytree(state, tmp_path / "fr")
    # beside PALOURDE the whole note ("Last move lost") leaves no room: its short form, over
    # the prompt that asks for the lost card again; the log says which file lost a line
    french = SimTable(tmp_path / "fr", language="fr")
    french.app.resume_game()
    assert (french.screen.header, french.screen.header_right) == ("PALOURDE", "Coup ôté")
    after = SimTable(state)
    after.app.resume_game()
    assert (after.screen.header, after.screen.header_right) == ("PALOURDE", "Move lost")
    assert after.screen.lines[:2] == ("Ann: flip 2nd", "card, tap it")
    assert f"dropped a torn last line in {current}" in caplog.text
    after.run("tap clam#2")
    assert after.state() == before.state() and after.screen.header_right == "Tide 0/3"
