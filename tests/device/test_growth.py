"""Work that must not grow: a game's end costs the same with 10 or 10,000 games in the history,
and an input costs the same at the 40,000th as at the first. Counted, never timed (the timing
is `tabletop bench`'s)."""
from __future__ import annotations

import gc
import types
import weakref
from pathlib import Path

import engine
from device.bench.growth import fill_history
from device.config import KioskConfig
from device.fleet.journal_feed import JournalFeed
from device.fleet.plugin import FleetPlugin
from device.kiosk.plugin import kiosk_plugins
from device.kiosk.system_actions import RecordedSystem
from device.sim.clock import VirtualClock
from device.storage import journal
from device.storage.history import keep_history
from device.storage.store import GameStore
from device.ui.prompt_timer import PromptTimer
from engine import Session, Tap, make_config

from .fleet_tables import CafeTable
from .table import SimTable
from .test_fleet_parts import FakeLink

WIN = ("clam#1", "clam#2", "high_tide#1", "high_tide#2", "high_tide#3")


def work_of_a_games_end(state_dir: Path, monkeypatch) -> dict[str, int]:
    """What one game's end does, from the last move to the history's row: SQLite's virtual
    machine steps, journals read, folders listed."""
    store = GameStore(state_dir, clock=VirtualClock())
    keeper = keep_history(store)            # opened, checked and caught up as the table starts
    spec = engine.get("palourde")
    session = Session(spec, make_config(spec, ["Ann", "Bob", "Cy"], first="Ann"))
    store.start(session, None)
    for number, card in enumerate(WIN, 1):
        session.play(Tap(card))
        store.record("event", Tap(card), session.state, number)
    counts = {"vm steps": 0, "journals read": 0, "folders listed": 0}

    def step() -> int:
        counts["vm steps"] += 1
        return 0
    keeper.history.db.set_progress_handler(step, 1)
    read, header, iterdir, glob = journal.read, journal.header, Path.iterdir, Path.glob

    def counted(name, real):
        def call(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return call
    monkeypatch.setattr(journal, "read", counted("journals read", read))
    monkeypatch.setattr(journal, "header", counted("journals read", header))
    monkeypatch.setattr(Path, "iterdir", counted("folders listed", iterdir))
    monkeypatch.setattr(Path, "glob", counted("folders listed", glob))
    assert store.finish(abandoned=False) is not None
    monkeypatch.undo()
    keeper.history.db.set_progress_handler(None, 1)
    (added,) = [g for g in keeper.history.games() if not g.id.startswith("old")]
    assert added.winners == ("Ann",)
    keeper.close()
    return counts


def test_a_games_end_does_the_same_work_whatever_the_history_holds(tmp_path, monkeypatch):
    few, many, games = tmp_path / "few", tmp_path / "many", 10_000
    fill_history(few, 10)
    fill_history(many, games)
    small, large = work_of_a_games_end(few, monkeypatch), work_of_a_games_end(many, monkeypatch)
    print(f"a game's end with 10 and {games} games in the history: {small} {large}")
    assert large["journals read"] == small["journals read"] == 1     # its own journal, once
    assert large["folders listed"] == small["folders listed"]
    # the index lookups of one insert grow with the tree's depth only: a few steps, not rows
    assert large["vm steps"] <= small["vm steps"] + 200


CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def held_by(root) -> int:
    """Every object reachable from `root` (not through modules, classes or functions: the
    code, not the table's data; nor weak references, which hold nothing: SQLite's connection
    keeps one per cursor and sweeps the dead ones every 200): what a long-running table keeps."""
    seen, todo = {id(root)}, [root]
    while todo:
        for child in gc.get_referents(todo.pop()):
            if id(child) in seen or isinstance(child, CODE) or type(child) is weakref.ref:
                continue
            seen.add(id(child))
            todo.append(child)
    return len(seen)


def test_a_table_holds_the_same_after_hundreds_of_games(tmp_path):
    """Every game's inputs in one process: nothing kept per input or per game outlives it
    (the inputs' lists, the plugins' seen sets, the journal's index, the history's handle)."""
    table = SimTable(tmp_path)
    keep_history(table.app.store)
    link = FakeLink()
    table.app.attach(*kiosk_plugins(KioskConfig(enabled=True), RecordedSystem()), PromptTimer(),
                     FleetPlugin(link, "t1", table.clock.wall))
    held, inputs = [], 0
    for game in range(1, 76):
        table.start("palourde", "Ann,Bob,Cy", "Ann").run(
            "\n".join(f"wait 60\ntap {card}" for card in WIN) + "\nwait 30\npress select")
        inputs += len(WIN) + 2
        link.sent.clear()                        # the fake broker's own record
        if game in (15, 75):
            held.append(held_by(table.app))
    assert table.app.session is None and inputs > 500
    # 60 games and 420 inputs later: anything kept per game or per input would add as many
    assert held[1] <= held[0] + 5


def test_the_journal_feed_parses_each_line_of_the_game_being_played_once(tmp_path):
    """The feed wakes at every input: it reads only what was written since, not the game anew."""
    table, link = CafeTable(tmp_path, "t1", None), FakeLink()
    feed = JournalFeed(link, "t1", tmp_path, table.clock.wall)
    table.start("palourde", ["Ann", "Bob", "Cy"])
    for card in WIN[:4]:
        table.play(f"wait 60\ntap {card}")
        feed.send_pending()
    written = (tmp_path / "current.jsonl").read_text().splitlines()
    assert feed.current.parsed == len(written) == 1 + 4
    assert [event["seq"] for event in link.of("events")] == [1, 2, 3, 4]
    table.play("wait 60\ntap high_tide#3\nwait 30\npress select")     # the game ends: archived
    table.start("palourde", ["Ann", "Bob"])                             # a new one is read anew
    table.play("wait 60\ntap clam#1")
    feed.send_pending()
    assert [event["seq"] for event in link.of("events")] == [1, 2, 3, 4, 5, 1]
    assert feed.current.parsed == 1 + 4 + 2
