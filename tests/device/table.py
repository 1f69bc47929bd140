"""A Companion on simulated parts, driven by simulator lines, for screen-level tests.

The same wiring as `tabletop run --sim` (sim decks over the state dir's registry,
virtual time, the real presence tracker) without the CLI, so a test can look at
each Screen and at the session between lines.
"""
from __future__ import annotations

import argparse
import importlib
import textwrap

from device.app import Companion
from device.assembly import open_registry, start_from_flags
from device.loop import Frames
from device.sim.clock import VirtualClock
from device.sim.lines import SimReaderField
from device.sim.play import run_sim
from device.storage.store import GameStore
from device.ui.layout import layout
from device.ui.wizard import Instruction
from engine.core.codec import dumps
from engine.core.registry import all_specs

WALL_CLOCK = "2024-05-04T12:40:00+02:00"      # a fixed wall clock: the game select shows 12:40


def to_game(game: str) -> str:
    """The presses that pick `game` on the game select, from its first item: DOWN to the game's
    place in the menu (GameSpec.order), then SELECT."""
    menu = [spec.id for spec in sorted(all_specs(), key=lambda spec: spec.order)]
    return "press down\n" * menu.index(game) + "press select\n"


def whole_games() -> dict:
    """game id -> its test_sim_<id> module (SETUP through the menus, PLAY to the game's end), for
    every game of this repository the registry holds."""
    ours = [spec.id for spec in all_specs() if spec.home.startswith("engine.games.")]
    return {game: importlib.import_module(f"{__package__}.test_sim_{game}") for game in ours}


class SimTable:
    def __init__(self, state_dir, language: str = "en") -> None:
        self.clock = VirtualClock(wall=WALL_CLOCK)
        self.registry = open_registry(state_dir, True)
        self.app = Companion(registry=self.registry, store=GameStore(state_dir, clock=self.clock),
                             clock=self.clock, language=language)
        self.field = SimReaderField(self.registry.sim_uid, clock=self.clock)
        self.images: list = []
        self.screens: list = []
        self.frames = Frames(on_frame=self._frame)

    def _frame(self, image, screen) -> None:
        self.images.append(image)
        self.screens.append(screen)

    def start(self, game: str, players: str = "P1,P2,P3", first: str | None = None,
              *options: str, dealt: bool = True) -> SimTable:
        """Skip the wizard, as `--game --players --first --option` do; `dealt`: SELECT past the
        deal instruction too, to the first prompt."""
        args = argparse.Namespace(game=game, players=players, first=first, option=list(options))
        problem = start_from_flags(self.app, args)
        assert problem is None, problem
        self.frames.update(self.app)
        if dealt and isinstance(self.app.mode, Instruction):
            self.run("press select")
        return self

    def run(self, lines: str) -> SimTable:
        def complain(text: str) -> None:
            raise AssertionError(text)
        run_sim(self.app, textwrap.dedent(lines).strip().splitlines(), self.clock, self.frames,
                self.field, complain)
        return self

    @property
    def screen(self):
        return self.app.screen()

    @property
    def text(self) -> str:
        return layout(self.screen).text()

    def state(self) -> str:
        """The session's state in its canonical form, to compare before and after."""
        return dumps(self.app.session.state)


def too_wide(screen) -> list[str]:
    """The texts of a screen the display cuts (header sides and body lines), as its layout
    finds them: a menu's line has a column less, a line with a scroll mark one more less."""
    return [cut.text for cut in layout(screen).cuts]
