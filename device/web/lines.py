"""The page's input lines, carried out on the loop's side, in the simulator's language.

Under the simulator a line is carried out exactly as a typed one (`device.sim.play.run_sim`,
one line), in turn with the typed lines: the lock is held while either is handled, and
released while the keyboard waits. On the table's own hardware the line goes onto the
loop's queue as an `Errand` and the loop carries it out between its other inputs; a card
line is refused there, since a card is tapped on the reader (the page never invents one),
and so is `wait`, since real time passes by itself.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import Any

from device.loop import Errand
from device.sim.lines import Answer, SimInputError, SimReaderField
from device.sim.play import run_sim
from engine.core.script import InputError, input_line, line_words

from .view import view

TAKE_S = 10.0                  # the longest the web waits for the loop to take a line
ON_THE_TABLE = ("tap", "place", "lift", "wait")


def in_turn(lines: Iterable, lock: threading.Lock) -> Iterator:
    """The keyboard's lines, each handled with the lock held (the generator resumes, and lets
    go of it, only once its line is done); waiting for the next one, the lock is free."""
    for line in lines:
        with lock:
            yield line


def simulated(app, clock, frames, field: SimReaderField, lock: threading.Lock
              ) -> Callable[[str], tuple[str | None, dict[str, Any]]]:
    """The simulator's way: a line as if typed, its complaint without the line number."""
    def carry(line: str) -> tuple[str | None, dict[str, Any]]:
        said: list[str] = []
        with lock:
            run_sim(app, [line], clock, frames, field, said.append, first=app.input_no or 0)
            return (said[0].partition(": ")[2] if said else None), view(app, app.screen())
    return carry


def on_hardware(app, put: Callable[[Any], None]) -> Callable[[str], tuple[str | None, dict[str, Any]]]:
    """The appliance's way: an errand on the loop's queue; the web's thread waits for it."""
    buttons = SimReaderField(lambda word: None)

    def carry(line: str) -> tuple[str | None, dict[str, Any]]:
        done: Future = Future()

        def run() -> None:
            try:
                done.set_result((take(app, buttons, line), view(app, app.screen())))
            except Exception as exc:          # noqa: BLE001  (the web answers 500, the loop goes on)
                done.set_exception(exc)
        put(Errand(run))
        return done.result(TAKE_S)
    return carry


def take(app, buttons: SimReaderField, line: str) -> str | None:
    """A button's or an answer's line on the loop's thread; what is wrong with it, or None."""
    try:
        words = line_words(line)
        if not words:
            return None
        verb = input_line(words).verb
        if verb in ON_THE_TABLE:
            return f"'{verb}' is done at the table: a card is tapped on the reader"
        actions = buttons.parse(line)
    except (InputError, SimInputError) as exc:
        return str(exc)
    for action in actions:
        if isinstance(action, Answer):
            if app.session is None:
                return "no game is on: choose, select, back, undo and redo answer a game's prompt"
            app.apply([action.action])
        else:
            app.handle(action)
    return None
