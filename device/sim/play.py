"""The simulator: lines from standard input drive the app on virtual time, and each new frame
goes to PNG files and, on a terminal, to the screen in half blocks."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable, Iterable

from device.inputs import Tick
from device.loop import Frames
from device.storage.journal import last_input
from device.storage.status import latest_journal
from device.texts import say

from .clock import VirtualClock
from .lines import SimInputError, SimReaderField, Wait


def run_sim(app, lines: Iterable[str], clock: VirtualClock, frames: Frames,
            field: SimReaderField, complain: Callable[[str], None], first: int = 1) -> None:
    """Drive the app from simulator lines; line numbers (from `first`) are journaled as input
    numbers."""
    frames.update(app)
    for number, line in enumerate(lines, first):
        app.input_no = number
        try:
            actions = field.parse(line)
        except SimInputError as exc:
            complain(f"input line {number}: {exc}")
            continue
        for action in actions:
            if isinstance(action, Wait):
                clock.advance(action.seconds)
                app.handle(Tick())
            else:
                app.handle(action)
            frames.update(app)


def run_simulated(app, clock: VirtualClock, args, config) -> int:
    from hardware.sim_display import FrameDisplay, TerminalDisplay
    displays = [FrameDisplay(args.frames)]
    if sys.stdout.isatty():
        displays.append(TerminalDisplay(sys.stdout))
    r = config.reader
    field = SimReaderField(app.registry.sim_uid, misses=r.miss_limit, debounce_ms=r.debounce_ms,
                           clock=clock)
    frames = Frames(*displays)
    if sys.stdin.isatty():
        print(say(args.language, "cli.run.typing"))
    first = first_input(app.store.dir)
    try:
        run_sim(app, acknowledged(sys.stdin, first), clock, frames, field,
                lambda text: print(text, file=sys.stderr), first)
    except KeyboardInterrupt:              # Ctrl-C: every accepted input is on disk already
        print(say(args.language, "cli.run.saved", dir=app.store.dir), file=sys.stderr)
        app.store.close()
        return 0
    if sys.stdin.isatty():                 # Ctrl-D at a terminal: the same word
        print(say(args.language, "cli.run.saved", dir=app.store.dir), file=sys.stderr)
    app.store.close()
    return 0


def first_input(state_dir: Path) -> int:
    """Input numbers go on from the state dir's latest journal, so a simulator restarted with
    the rest of its input journals the numbers the uninterrupted run would have."""
    latest = latest_journal(state_dir)
    return (last_input(latest) if latest else 0) + 1


def acknowledged(lines, first: int):
    """The lines; with TABLETOP_SIM_ACK=1, `ack N` on standard error once line N is handled,
    so a test driving the process knows where it is without waiting on the clock."""
    ack = os.environ.get("TABLETOP_SIM_ACK") == "1"
    for number, line in enumerate(lines, first):
        yield line
        if ack:
            print(f"ack {number}", file=sys.stderr, flush=True)
