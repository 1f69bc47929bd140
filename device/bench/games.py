"""The bench's table: seeded random legal play of each game through the real app, timed.

Each game's events come from `engine.legal_events`, one picked at random (seeded). A
card reaches the app as the reader delivers it, a `Placed` event with the card's sim
UID; the other events go through the buttons as a player presses them (the menu moved
to the option, then SELECT; BACK). Messages run out in virtual time before the next
input, as they do at a table. A tap is timed from the reader event to the frame sent
to the display driver: engine step, journal append with fsync, render, page diff and
the driver's bus writes.
"""
from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from device.app import Companion
from device.assembly import open_registry, start_from_flags
from device.inputs import ButtonPressed, Placed, Tick
from device.loop import Frames
from device.sim.clock import VirtualClock
from device.storage.store import GameStore
from device.ui.game_select import games
from device.ui.playing import CONFIRM_KEY, STEPPER
from device.ui.wizard import Instruction
from engine import Cancel, Choose, Confirm, Event, Tap, legal_events

from .display import oled_on_bus

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
SEATS = 4                      # or the nearest count the game allows
WALL_CLOCK = "2024-05-04T20:00:00+02:00"
DEBOUNCE_GAP_S = 2


@dataclass
class Transcript:
    """A game as `tabletop run --sim` arguments and input lines."""
    game: str
    players: tuple[str, ...]
    lines: list[str]

    def args(self) -> list[str]:
        return ["--game", self.game, "--players", ",".join(self.players)]


@dataclass
class TableRun:
    tap_s: list[float] = field(default_factory=list)        # reader event -> frame sent
    tap_journal_s: list[float] = field(default_factory=list)  # of which in journal appends
    append_s: list[float] = field(default_factory=list)     # journal append, fsync included
    updates: list[list[int]] = field(default_factory=list)  # bus transactions per update
    tap_updates: list[list[int]] = field(default_factory=list)  # each tap's (maybe none)
    transcripts: list[Transcript] = field(default_factory=list)   # one per game


class TimedStore(GameStore):
    """The game store, timing each journal append (write and fsync)."""

    def __init__(self, state_dir: Path, clock: VirtualClock) -> None:
        super().__init__(state_dir, clock=clock)
        self.append_s: list[float] = []

    def record(self, *args):
        start = time.perf_counter()
        error = super().record(*args)
        self.append_s.append(time.perf_counter() - start)
        return error


def play_games(directory: Path, seeds: Iterable[int],
               only: Iterable[str] | None = None) -> TableRun:
    """One game of each registered game (or of `only`) per seed, each in its own state dir."""
    run = TableRun()
    for spec in games():
        if only is not None and spec.id not in only:
            continue
        for seed in seeds:
            table = BenchGame(directory / f"{spec.id}-{seed}", spec, run)
            table.play(random.Random(seed))
            run.transcripts.append(Transcript(spec.id, table.players, table.script))
    return run


def presses(mode, event) -> list[str]:
    """The buttons a player presses on the play screen to send `event` (not a tap)."""
    if isinstance(event, Cancel):
        return ["back"]
    key = CONFIRM_KEY if isinstance(event, Confirm) else event.option
    if getattr(mode, "stepper", False) and key in STEPPER:
        return ["up" if key == STEPPER[0] else "down"]
    picker = getattr(mode, "picker", None)
    if picker is not None and isinstance(event, Choose):
        return picker.presses_to(int(key))  # a number: its digits, each the shorter way round
    menu = getattr(mode, "menu", None)
    if menu is None:
        return ["select"]                   # SELECT confirms a prompt without a menu
    keys = [k for k, _ in menu.items]
    return ["down"] * ((keys.index(key) - menu.index) % len(keys)) + ["select"]


class BenchGame:
    """One game on simulated parts with the real display driver on a counting bus."""

    def __init__(self, state_dir: Path, spec, run: TableRun) -> None:
        self.spec, self.run = spec, run
        self.clock = VirtualClock(wall=WALL_CLOCK)
        self.store = TimedStore(state_dir, self.clock)
        self.registry = open_registry(state_dir, True)
        self.app = Companion(registry=self.registry, store=self.store, clock=self.clock)
        display, self.bus = oled_on_bus()
        self.frames = Frames(display)
        self.script: list[str] = []          # the same game as `tabletop run --sim` input

    def play(self, rng: random.Random) -> None:
        self._start()
        app, spec = self.app, self.spec
        for _ in range(spec.max_events):
            if spec.result(app.game().state) is not None:
                break
            self._let_messages_run_out()
            event = self.choose(rng)
            seq = app.game().state.seq
            if isinstance(event, Tap):
                self._tap(event.card)
            else:
                for name in presses(app.mode, event):
                    self.script.append(f"press {name}")
                    self._input(ButtonPressed(name.upper()))
            if app.game().state.seq != seq + 1:
                raise RuntimeError(f"bench: {spec.id} did not take {event} at seq {seq}")
        if spec.result(app.game().state) is None:
            raise RuntimeError(f"bench: {spec.id} did not end within {spec.max_events} events")
        self.run.append_s += self.store.append_s
        self.store.close()

    def choose(self, rng: random.Random) -> Event:
        """The next event: one of the legal inputs, at random."""
        return rng.choice(self.inputs())

    def inputs(self) -> list[Event]:
        """The legal events a table can send from its screen now: a many-step prompt's screen
        refuses a pick it already took ("Already picked"), though the rules would take it again."""
        picked: frozenset[str] = getattr(self.app.mode, "picked", frozenset())
        return [event for event in legal_events(self.spec, self.app.game().state)
                if not (isinstance(event, Choose) and event.option in picked)]

    @property
    def players(self) -> tuple[str, ...]:
        low, high = self.spec.player_range(tuple((o.key, o.default) for o in self.spec.options))
        return PLAYERS[:min(max(SEATS, low), high)]

    def _start(self) -> None:
        args = argparse.Namespace(game=self.spec.id, players=",".join(self.players), first=None,
                                  option=[])
        problem = start_from_flags(self.app, args)
        if problem:
            raise RuntimeError(f"bench: cannot start {self.spec.id}: {problem}")
        if isinstance(self.app.mode, Instruction):      # the table deals, then SELECT
            self.script.append("press select")
            self.app.handle(ButtonPressed("SELECT"))
        self.frames.update(self.app)
        self.bus.take()                     # the first frame is a full one: not an update

    def _tap(self, card: str) -> None:
        event = Placed(self.registry.sim_uid(card))
        appends = len(self.store.append_s)
        start = time.perf_counter()
        self.app.handle(event)
        self.frames.update(self.app)
        self.run.tap_s.append(time.perf_counter() - start)
        self.run.tap_journal_s.append(sum(self.store.append_s[appends:]))
        self.run.tap_updates.append(self._count())
        self.app.settle()                   # a game it ended is recorded after its frame, as at a table
        # the simulator's reader debounces the same card in a row: time passes between taps
        self.script += [f"tap {card}", f"wait {DEBOUNCE_GAP_S}"]

    def _input(self, event) -> None:
        self.app.handle(event)
        self.frames.update(self.app)
        self.app.settle()
        self._count()

    def _let_messages_run_out(self) -> None:
        while self.app.overlay is not None:
            if self.app.overlay.until is None:  # an instruction: read, then a button it does not name
                name = next(b for b in ("up", "down", "back") if not self.app.overlay.names(b))
                self.script.append(f"press {name}")
                self._input(ButtonPressed(name.upper()))
                continue
            seconds = max(0.0, self.app.overlay.until - self.clock.monotonic())
            self.script.append(f"wait {seconds}")
            self.clock.advance(seconds)
            self._input(Tick())

    def _count(self) -> list[int]:
        """The bus transactions of the update just made (none when the frame did not change)."""
        payloads = self.bus.take()
        if payloads:
            self.run.updates.append(payloads)
        return payloads
