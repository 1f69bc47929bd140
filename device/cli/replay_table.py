"""A script that presses buttons, holds a card or waits: played on a simulated table.

Such lines mean what they mean in `tabletop run --sim`, so the whole script runs
there, line by line: the scripted game started as `--game` starts it (at its
first prompt, past the deal), on a table of its own in a folder that goes when
the replay ends. Each line is recorded with what the game made of it: the
events the screen sent (a press may send none, a SELECT on a number one), or
why the simulator refused the line.
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from device.app import Companion
from device.assembly import open_registry
from device.loop import Frames
from device.plugin import Answered, Plugin
from device.sim.clock import VirtualClock
from device.sim.lines import SimReaderField
from device.sim.play import run_sim
from device.storage.store import GameStore
from device.ui.prompt_timer import PromptTimer
from device.ui.setup_choices import decks_for
from engine import Accepted, Info, Rejected, Session
from engine.core.script import ScriptStep


@dataclass
class StepRecord:
    """What one input line did: accepted (with messages), rejected, or shown only."""

    line: int
    text: str
    verdict: str                     # "ok" | "rejected" | "info"
    messages: list[str] = field(default_factory=list)
    code: str | None = None


class Recorder(Plugin):
    """Keeps every game input the table made, in order."""

    order = 90              # after every plugin of the table: it only listens

    def __init__(self) -> None:
        self.outcomes: list[Answered] = []

    def on_outcome(self, app, outcome: Answered) -> None:
        self.outcomes.append(outcome)


def on_table(session: Session, steps: Iterable[ScriptStep], language: str) -> list[StepRecord]:
    """Run the steps on a simulated table playing `session`; what each line did."""
    with tempfile.TemporaryDirectory(prefix="tabletop-replay-") as folder:
        state_dir, clock = Path(folder), VirtualClock()
        registry = open_registry(state_dir, True)
        app = Companion(registry=registry, store=GameStore(state_dir, clock=clock), clock=clock,
                        language=language)
        recorder = Recorder()
        app.attach(PromptTimer(), recorder)    # a prompt that closes by itself does, on `wait`
        decks = decks_for(registry, session.spec)
        app.start_game(session, decks[0] if decks else None)
        reader, frames = SimReaderField(registry.sim_uid, clock=clock), Frames()
        records = []
        for step in steps:
            said: list[str] = []
            before = len(recorder.outcomes)
            run_sim(app, [step.text], clock, frames, reader, said.append, first=step.line)
            records.append(record(step, recorder.outcomes[before:], said, language))
        app.store.close()
    return records


def record(step: ScriptStep, outcomes: list[Answered], said: list[str], language: str) -> StepRecord:
    """One line's record: refused, what its game inputs got, or nothing sent ("info")."""
    if said:
        return StepRecord(step.line, step.text, "rejected",
                          [text.partition(": ")[2] for text in said])
    events = [str(o.event) if o.event is not None else o.op for o in outcomes]
    text = step.text if step.kind == "device" else " ".join(events) or step.text
    if step.kind == "device" and events:
        text += " -> " + ", ".join(events)
    messages: list[str] = []
    verdict, code = "info", None
    for outcome in outcomes:
        answer = outcome.answer
        if isinstance(answer, Accepted):
            messages += [m.text(language) for m in answer.effects]
            verdict = "ok" if verdict == "info" else verdict
        elif isinstance(answer, Rejected):
            messages.append(answer.msg.text(language))
            verdict, code = "rejected", answer.code
        elif isinstance(answer, Info):
            messages.append(answer.msg.text(language))
    return StepRecord(step.line, text, verdict, messages, code)
