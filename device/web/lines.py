"""The page's errands on the loop's side: its input lines, in the simulator's language, and
the names it adds to the roster.

Under the simulator an errand runs with the lock that the typed lines hold while each is
handled (released while the keyboard waits), and the frame is drawn after it; a line is
carried out exactly as a typed one (`device.sim.play.run_sim`, one line). On the table's own
hardware an errand goes onto the loop's queue (`Errand`) and the loop runs it between its other
inputs, then draws; a card line is refused there, since a card is tapped on the reader (the
page never invents one), and so is `wait`, since real time passes by itself.

What a line or a name wants done it returns with its answer (`Told`), as a mode does; the
desk, the loop's side of the page, has the app carry it out.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

from device.actions import NOTHING, Actions, Offer
from device.loop import Errand
from device.players.roster import Roster, RosterError, new_player
from device.sim.lines import Answer, SimInputError, SimReaderField
from device.sim.play import run_sim
from device.ui.setup_lines import SetupRefused, told
from device.ui.wizard import Seats
from engine.core.script import InputError, input_line, line_words

from .view import view

TAKE_S = 10.0                  # the longest the web waits for the loop to take an errand
ON_THE_TABLE = ("tap", "place", "lift", "wait")
T = TypeVar("T")
OnLoop = Callable[[Callable[[], T]], T]
Told = tuple[str | None, Actions]      # what is wrong (None: nothing), and what the app is to do


def in_turn(lines: Iterable, lock: threading.Lock) -> Iterator:
    """The keyboard's lines, each handled with the lock held (the generator resumes, and lets
    go of it, only once its line is done); waiting for the next one, the lock is free."""
    for line in lines:
        with lock:
            yield line


def under_lock(app, frames, lock: threading.Lock) -> OnLoop:
    """The simulator's way: the errand in turn with the typed lines, then the frame."""
    def run(errand: Callable[[], T]) -> T:
        with lock:
            done = errand()
            frames.update(app)
            return done
    return run


def on_queue(put: Callable[[Any], None]) -> OnLoop:
    """The appliance's way: an errand on the loop's queue; the web's thread waits for it."""
    def run(errand: Callable[[], T]) -> T:
        done: Future = Future()

        def carry_out() -> None:
            try:
                done.set_result(errand())
            except Exception as exc:          # noqa: BLE001  (the web answers 500, the loop goes on)
                done.set_exception(exc)
        put(Errand(carry_out))
        return done.result(TAKE_S)
    return run


def simulated(app, clock, frames, field: SimReaderField) -> Callable[[str], Told]:
    """A line as if typed (the simulator carries it out); its complaint without the line
    number."""
    def carry(line: str) -> Told:
        said: list[str] = []
        run_sim(app, [line], clock, frames, field, said.append, first=app.input_no or 0)
        return (said[0].partition(": ")[2] if said else None), NOTHING
    return carry


def on_hardware(app) -> Callable[[str], Told]:
    buttons = SimReaderField(lambda word: None)
    return lambda line: take(app, buttons, line)


def take(app, buttons: SimReaderField, line: str) -> Told:
    """A button's or an answer's line on the loop's thread: its buttons go to the app as the
    panel's would; an answer (a line is one or the other) is returned for the app to do."""
    try:
        words = line_words(line)
        if not words:
            return None, NOTHING
        verb = input_line(words).verb
        if verb in ON_THE_TABLE:
            return f"'{verb}' is done at the table: a card is tapped on the reader", NOTHING
        heard = buttons.parse(line)
    except (InputError, SimInputError) as exc:
        return str(exc), NOTHING
    answers = [said.action for said in heard if isinstance(said, Answer)]
    if answers and app.session is None:
        return "no game is on: choose, select, back, undo and redo answer a game's prompt", NOTHING
    for pressed in heard:
        if not isinstance(pressed, Answer):
            app.handle(pressed)
    return None, answers


def setup_line(app, line: str) -> Told:
    """A setup line from the page (device/ui/setup_lines.py), on the loop's side: what the
    wizard wants done, or why the line is refused."""
    try:
        return None, told(app.seen, app.mode, line)
    except SetupRefused as exc:
        return str(exc), NOTHING


def add_name(app, name: str) -> Told:
    """A name typed on the page joins the roster, checked as `tabletop players add` checks it;
    a setup naming its seats is to offer it at once."""
    try:
        Roster(app.store.dir).add(new_player(name))
    except (RosterError, OSError) as exc:
        return str(exc), NOTHING
    return None, [Offer()] if isinstance(app.mode, Seats) else NOTHING


def view_now(app) -> dict[str, Any]:
    return view(app, app.screen())
