"""What one input costs the table: each game state's prompt and tally are worked out once, however
many parts read them (the app, its plugins, the frame), and a tap goes into device/app.py only so
many times. Counted with a profile hook on a table with the plugins `tabletop run --sim` attaches."""
from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
from pathlib import Path

import pytest

import device.app
from device.assembly import assemble, start_from_flags
from device.config import Config
from device.inputs import Placed
from device.loop import Frames
from device.sim.lines import SimReaderField
from device.sim.play import run_sim

from .test_sim_palourde import PLAY

APP_FILE = device.app.__file__
TAP_ENTRIES = 24          # calls into device/app.py from outside it, for a tap and its frame (20 today)


class Counts:
    """A profile hook's counts: each state the game's tally and prompt were worked out for
    (states kept, so no id is reused), and the calls into device/app.py from another file."""

    def __init__(self, spec) -> None:
        self.codes = {spec.tally.__code__: "tally", spec.prompt.__code__: "prompt"}
        self.states: dict[str, list] = {"tally": [], "prompt": []}
        self.entries: Counter[str] = Counter()

    def __call__(self, frame, event, arg) -> None:
        if event != "call":
            return
        what = self.codes.get(frame.f_code)
        if what is not None:
            self.states[what].append(frame.f_locals[frame.f_code.co_varnames[0]])
        caller = frame.f_back
        if frame.f_code.co_filename == APP_FILE and caller is not None \
                and caller.f_code.co_filename != APP_FILE:
            self.entries[frame.f_code.co_name] += 1

    def worked_out(self, what: str) -> int:
        return len(self.states[what])

    def twice(self, what: str) -> list:
        """The states whose `what` was worked out more than once."""
        seen = self.states[what]
        return [state for n, state in enumerate(seen) if any(s is state for s in seen[:n])]


@pytest.fixture
def table(tmp_path: Path):
    """Palourde on a simulated table with its plugins, P2 first, past the deal instruction."""
    app = assemble(Config(), tmp_path, sim=True, out=io.StringIO())
    assert {type(p).__name__ for p in app.plugins} >= {"LearnedCards", "PromptTimer", "Feedback"}
    frames = Frames(on_frame=lambda image, screen: None)
    field = SimReaderField(app.registry.sim_uid, clock=app.clock)
    flags = argparse.Namespace(game="palourde", players="P1,P2,P3", first="P2", option=[])
    assert start_from_flags(app, flags) is None
    frames.update(app)

    def run(*lines: str) -> None:
        def complain(text: str) -> None:
            raise AssertionError(text)
        run_sim(app, list(lines), app.clock, frames, field, complain)

    run("press select")
    return app, frames, run


def counted(app, work) -> Counts:
    counts = Counts(app.game().spec)
    sys.setprofile(counts)
    try:
        work()
    finally:
        sys.setprofile(None)
    return counts


def test_a_tap_works_out_the_new_state_s_tally_and_prompt_once(table):
    app, frames, _ = table
    before = app.game().state

    def tap() -> None:                    # what the loop does with one input: take it, draw
        app.handle(Placed(app.registry.sim_uid("clam#1")))
        frames.update(app)

    counts = counted(app, tap)
    assert app.game().state is not before                  # the tap was played
    assert counts.worked_out("tally") == 1 and counts.worked_out("prompt") == 1
    assert counts.states["tally"][0] is app.game().state   # the new state's, the old one's kept
    assert sum(counts.entries.values()) <= TAP_ENTRIES, counts.entries


def test_no_state_of_a_whole_game_has_its_tally_or_prompt_worked_out_twice(table):
    app, _, run = table
    lines = [line for line in PLAY.strip().splitlines()]
    counts = counted(app, lambda: run(*lines))
    assert app.game().spec.result(app.game().state) is not None       # the game was played out
    assert counts.worked_out("tally") >= len(lines) - 3
    assert counts.twice("tally") == [] and counts.twice("prompt") == []
