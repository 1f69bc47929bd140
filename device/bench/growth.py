"""Bench data: what must not grow. A game's end with a small and a large history, and the cost
of an input early and late in one long-running table (the tests count the same work; these
are its timings)."""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import engine
from device.app import Companion
from device.assembly import open_registry, start_from_flags
from device.inputs import ButtonPressed, Placed, Tick
from device.loop import Frames
from device.sim.clock import VirtualClock
from device.storage.history import keep_history
from device.storage.store import GameStore
from engine import Session, Tap, make_config

WIN = ("clam#1", "clam#2", "high_tide#1", "high_tide#2", "high_tide#3")   # Ann wins, 2-0-0
WALL_CLOCK = "2024-05-04T20:00:00+02:00"
PLAYERS = ("Ann", "Bob", "Cy")


def fill_history(state_dir: Path, games: int) -> None:
    """A history of `games` finished games, as rows (their journals long gone by retention)."""
    keeper = keep_history(GameStore(state_dir))
    db = keeper.history.db if keeper.history is not None else None
    if db is None:
        raise RuntimeError(f"bench: no history in {state_dir}")
    with db:
        db.executemany(
            "INSERT INTO games VALUES (?, 'palourde', ?, NULL, 600, '{}', NULL, 'Ann', 5, ?)",
            [(f"old{n}", f"2024-01-01T20:{n % 60:02d}:00+01:00", f"{n}.jsonl")
             for n in range(games)])
        db.executemany("INSERT INTO players VALUES (?, ?, ?, 0, ?)",
                       [(f"old{n}", seat, name, int(seat == 1)) for n in range(games)
                        for seat, name in enumerate(PLAYERS, 1)])
    keeper.close()


def game_end_seconds(state_dir: Path, history_games: int, repeat: int) -> float:
    """The median time of a game's end (end line, archive, the history's row) on a table whose
    history already holds `history_games` games."""
    fill_history(state_dir, history_games)
    store = GameStore(state_dir, clock=VirtualClock(wall=WALL_CLOCK))
    keeper = keep_history(store)
    spec = engine.get("palourde")
    ends = []
    for _ in range(repeat):
        session = Session(spec, make_config(spec, PLAYERS, first="Ann"))
        store.start(session, None)
        for number, card in enumerate(WIN, 1):
            session.play(Tap(card))
            store.record("event", Tap(card), session.state, number)
        start = time.perf_counter()
        store.finish(abandoned=False)
        ends.append(time.perf_counter() - start)
    keeper.close()
    return statistics.median(ends)


def input_seconds(state_dir: Path, inputs: int) -> list[float]:
    """Each input's time (to the frame) over `inputs` inputs of short games, one after the
    other on one table, with its history kept: the whole life of a busy table in one process."""
    clock = VirtualClock(wall=WALL_CLOCK)
    store = GameStore(state_dir, clock=clock)
    keeper = keep_history(store)
    registry = open_registry(state_dir, True)
    app = Companion(registry=registry, store=store, clock=clock)
    frames, seconds = Frames(), []

    def timed(event) -> None:
        clock.advance(60)                  # a minute between moves: messages run out
        app.handle(Tick())
        start = time.perf_counter()
        app.handle(event)
        frames.update(app)
        seconds.append(time.perf_counter() - start)
    flags = argparse.Namespace(game="palourde", players=",".join(PLAYERS), first="Ann", option=[])
    while len(seconds) < inputs:
        if start_from_flags(app, flags) is not None or app.session is None:
            raise RuntimeError("bench: the short game does not start")
        timed(ButtonPressed("SELECT"))      # past the deal
        for card in WIN:
            timed(Placed(registry.sim_uid(card)))
        timed(ButtonPressed("SELECT"))      # the result is left: archived, into the history
        if app.session is not None:
            raise RuntimeError("bench: the short game did not end")
    keeper.close()
    return seconds[:inputs]
