"""The simulator: lines from standard input drive the app on virtual time, and each new frame
goes to PNG files and, on a terminal, to the screen (device.sim.terminal)."""
from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from device.inputs import Tick
from device.loop import Frames
from device.storage.journal import last_input
from device.storage.status import latest_journal
from device.texts import say

from .clock import VirtualClock
from .lines import Answer, SimInputError, SimReaderField, Wait, read_lines
from .terminal import SimTerminal, write_all

# A player's hand between two actions: lifting a card and putting the next one down, or
# reaching for a button. Longer than the reader's debounce (1.5 s by default), so the same
# card tapped on two lines counts twice, as two taps at a table do; shorter than a message
# stays up (2 s), so a press on the next line still meets the message it answers.
LINE_SECONDS = 1.6


def run_sim(app, lines: Iterable[str | SimInputError], clock: VirtualClock, frames: Frames,
            field: SimReaderField, complain: Callable[[str], None], first: int = 1) -> None:
    """Drive the app from simulator lines; line numbers (from `first`) are journaled as input
    numbers. Each line that acts takes LINE_SECONDS of virtual time first, `wait` exactly
    its own; a refused line takes none and changes nothing."""
    frames.update(app)
    for number, line in enumerate(lines, first):
        app.input_no = number
        try:
            if isinstance(line, SimInputError):
                raise line
            actions = field.parse(line)
            if actions and isinstance(actions[0], Answer) and app.session is None:
                raise SimInputError("no game is on: choose, select, back, undo and redo "
                                    "answer a game's prompt")
        except SimInputError as exc:
            complain(f"input line {number}: {exc}")
            continue
        if actions and not isinstance(actions[0], Wait):
            actions.insert(0, Wait(LINE_SECONDS))
        for action in actions:
            if isinstance(action, Wait):
                pass_time(app, clock, frames, action.seconds)
            elif isinstance(action, Answer):
                app.apply([action.action])
            else:
                app.handle(action)
            frames.update(app)
            if app.settle():                   # as the loop does: the frame, then the end
                frames.update(app)


def pass_time(app, clock: VirtualClock, frames: Frames, seconds: float) -> None:
    """Let `seconds` of virtual time pass as the appliance's loop lives them: it wakes at each
    deadline the app names, so every timer fires at its due time, and a timer that one firing
    arms (a countdown after a message) fires within the same wait; then it ticks at the end.

    A deadline the tick at its own instant did not move is not waited on again (the real loop
    would spin on it): time goes on to the wait's end."""
    end = clock() + seconds
    ticked_at = None
    while (due := app.next_deadline()) is not None and due <= end:
        if due <= clock():
            if ticked_at == clock():
                break
        clock.advance_to(due)
        ticked_at = clock()
        app.handle(Tick())
        frames.update(app)
        if app.settle():
            frames.update(app)
    clock.advance_to(end)
    if ticked_at != end:
        app.handle(Tick())


class Keyboard:
    """The person at the simulator: the lines they type, what they read before each one,
    and Ctrl-C. Ctrl-C while they type ends the run at once; while a line is being handled,
    once it is, so the game is never left halfway through an input."""

    def __init__(self, stream, first: int, terminal: SimTerminal | None = None) -> None:
        self.stream, self.first, self.terminal = stream, first, terminal
        self.ack = os.environ.get("TABLETOP_SIM_ACK") == "1"
        self.typing = False
        self.interrupted = False

    def lines(self) -> Iterator[str | SimInputError]:
        """The lines; with TABLETOP_SIM_ACK=1, `ack N` on standard error once line N is
        handled (and `ack` of the line before the first once the table has started), so a
        test driving the process knows where it is without waiting on a clock."""
        typed = read_lines(self.stream)
        for number in range(self.first, sys.maxsize):
            if self.interrupted:
                raise KeyboardInterrupt
            self.typing = True             # from here a resize draws at once
            try:
                if self.terminal is not None:
                    self.terminal.draw()
                if self.ack:
                    write_all(sys.stderr, f"ack {number - 1}\n")   # a resize may come meanwhile
                line = next(typed, None)
            finally:
                self.typing = False
            if line is None:
                return
            yield line

    def interrupt(self, _signum=None, _frame=None) -> None:
        self.interrupted = True
        if self.typing:
            raise KeyboardInterrupt

    def resized(self, _signum=None, _frame=None) -> None:
        assert self.terminal is not None       # the handler is only set with a terminal
        self.terminal.stale = True
        if self.typing:
            self.terminal.draw()


def run_simulated(app, clock: VirtualClock, args, config,
                  terminal: SimTerminal | None = None, web=None) -> int:

    from hardware.sim_display import FrameDisplay
    r = config.reader
    field = SimReaderField(app.registry.sim_uid, misses=r.miss_limit, debounce_ms=r.debounce_ms,
                           clock=clock)
    frames = Frames(FrameDisplay(args.frames), on_frame=terminal)
    at_terminal = sys.stdin.isatty()
    if at_terminal and terminal is None:    # a terminal's frames show it beside the text
        print(say(args.language, "cli.run.typing").replace("\n", " "))
    stdin = getattr(sys.stdin, "buffer", sys.stdin)     # bytes: a line may not be UTF-8
    keyboard = Keyboard(stdin, first_input(app.store.dir), terminal)
    lines = keyboard.lines() if web is None else web.simulated(keyboard.lines(), clock, frames, field)
    handlers = _listen(keyboard)
    try:
        run_sim(app, lines, clock, frames, field,
                lambda text: write_all(sys.stderr, text + "\n"), keyboard.first)
    except KeyboardInterrupt:              # Ctrl-C: every accepted input is on disk already
        if at_terminal:
            print(file=sys.stderr)         # off the line the terminal's "^C" is on
        at_terminal = True
    finally:
        _restore(handlers)
    if at_terminal and app.session is not None:   # Ctrl-C, or Ctrl-D at a terminal: where the game is
        # the screen's language, when the command line chose it, is part of the way back
        language = f" --language {args.language}" if getattr(args, "language_asked", False) else ""
        print(say(args.language, "cli.run.saved", dir=app.store.dir,
                  command=f"tabletop{language} run --sim --state-dir {app.store.dir}"),
              file=sys.stderr)
    app.store.close()
    return 0


def _listen(keyboard: Keyboard) -> dict:
    """Ctrl-C and terminal resizes to the keyboard, while it runs (main thread only)."""
    wanted = {signal.SIGINT: keyboard.interrupt}
    if keyboard.terminal is not None and hasattr(signal, "SIGWINCH"):
        wanted[signal.SIGWINCH] = keyboard.resized
    try:
        return {number: signal.signal(number, handler) for number, handler in wanted.items()}
    except ValueError:                     # not the main thread: signals stay as they were
        return {}


def _restore(handlers: dict) -> None:
    for number, handler in handlers.items():
        signal.signal(number, handler)


def first_input(state_dir: Path) -> int:
    """Input numbers go on from the state dir's latest journal, so a simulator restarted with
    the rest of its input journals the numbers the uninterrupted run would have."""
    latest = latest_journal(state_dir)
    return (last_input(latest) if latest else 0) + 1
