"""Bench data: a journal of N operations from seeded random legal play, and its resume time."""
from __future__ import annotations

import random
import time
from pathlib import Path

import engine
import seeds
from device.paths import write_atomic
from device.storage import journal
from engine import Op, Session, legal_events, make_config

GAME = "tamalou"
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
MATCH = "rounds:5"              # a match runs to thousands of events
STARTED = "2024-05-04T20:00:00+02:00"


def journal_with_events(path: Path, n: int, seed: int = 1) -> Path:
    """Write a journal of `n` operations as a table would: legal events, now and then an undo
    and its redo. Written in one go: the bench times the reading, not the building."""
    spec = engine.get(GAME)
    config = make_config(spec, PLAYERS, options={"match": MATCH},
                         data=seeds.game_data(spec.id, spec.deck))
    session = Session(spec, config)
    rng = random.Random(seed)
    records = [journal.header_for(session, None, STARTED)]
    for number in range(1, n + 1):
        op = _next_op(session, rng)
        session.apply_op(op)
        records.append(journal.record_for(op, session.state, number))
    write_atomic(path, b"".join(journal.encode(r) for r in records).decode())
    return path


def _next_op(session: Session, rng: random.Random) -> Op:
    over = session.spec.result(session.state) is not None
    if session.can_redo() and rng.random() < 0.5:
        return Op("redo")
    if session.can_undo() and (over or rng.random() < 0.05):
        return Op("undo")                 # a finished match goes back and plays on differently
    return Op("event", rng.choice(legal_events(session.spec, session.state)))


def resume_seconds(path: Path, repeat: int = 3) -> float:
    """The best of `repeat` resumes of the journal at `path` (read, replay, check every hash)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        journal.resume(path)
        best = min(best, time.perf_counter() - start)
    return best
