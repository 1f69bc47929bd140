"""Nothing the display draws is ever cut, in English or French: not in the whole games, not in
the conformance's and the bench's random playouts played through the app, not in any menu at
any highlight, not in any house rule at any of its values. A failure names each cut: the
language, the screen and how it was reached, the place, the text and its catalog keys."""
from __future__ import annotations

import os
import random

import pytest

from device.bench import games as bench
from device.cli.bench import QUICK
from device.config import KioskConfig
from device.conformance.playouts import player_counts
from device.kiosk.plugin import kiosk_plugins
from device.kiosk.system_actions import RecordedSystem
from device.loop import Frames
from device.ui.game_select import games
from device.ui.number import NumberPicker
from device.ui.paging import pages
from device.ui.playing import Playing
from device.ui.screen import BODY_LINES
from device.ui.setup_choices import Setup
from device.ui.wizard import HouseRules, option_numbers

from ..playouts import Picks
from .cuts import Seen, Watched, assert_uncut
from .table import whole_games

LANGUAGES = ("en", "fr")
GAMES = whole_games()
SPECS = {spec.id: spec for spec in games()}
CONFORMANCE_SEEDS = (0,)         # the seed the conformance renders every text with
TEN_LETTERS = ("Maximilian", "Bartholome", "Christophe", "Wilhelmina", "Alexandrie",
               "Théodorine", "Gwendoline", "Montgomery")
TEXT_ROOMS = (2, 3, BODY_LINES)  # a prompt's room: above a paged menu, above a number, alone
DEPTH = 4                        # menus within menus: game select, setup steps, the game's


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_frame_of_a_whole_game_is_cut(tmp_path, game, language):
    script = GAMES[game]
    # BACK: the game's last instructions read, GAME OVER shows
    table = Watched(tmp_path, language).run(script.SETUP + script.PLAY + "press back\n")
    assert_uncut(table.seen)
    assert any(screen.header == table.app.t("ui.game_over") for screen in table.screens)


class Read(Watched):
    """A Watched table that checks, at each frame, that the play screen shows a page of its
    prompt's whole text."""

    def __init__(self, state_dir, language: str = "en") -> None:
        super().__init__(state_dir, language)
        self.lost: list[str] = []

    def _frame(self, image, screen) -> None:
        super()._frame(image, screen)
        self.lost += lost_words(self.app, screen, self.seen[-1].where)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_with_ten_letter_names_loses_no_word(tmp_path, monkeypatch, game, language):
    """The same menus and cards, every seat named with 10 letters (the roster's longest)."""
    monkeypatch.setattr(Setup, "names", lambda setup: TEN_LETTERS[:setup.players])
    script = GAMES[game]
    table = Read(tmp_path, language).run(script.SETUP + script.PLAY + "press back\n")
    assert_uncut(table.seen)
    assert not table.lost, "\n".join(table.lost[:10])
    assert any(screen.header == table.app.t("ui.game_over") for screen in table.screens)


class Played(bench.BenchGame):
    """A bench table with the players given, keeping every frame as each language shows it; a
    game played before in the run plays the same picks again (tests/playouts.py)."""

    def __init__(self, state_dir, spec, players: tuple[str, ...], seed: int):
        super().__init__(state_dir, spec, bench.TableRun())
        self.chosen = players
        self.seen: list[Seen] = []
        self.lost: list[str] = []
        self.game = f"{spec.id} with {len(players)} players, seed {seed}"
        # the screens are the question, not the bytes a panel is sent (the bench's display
        # test counts those): the frames go to no panel
        self.frames = Frames(on_frame=self._frame)
        self.picks = Picks((spec.id, players, seed))

    @property
    def players(self) -> tuple[str, ...]:
        return self.chosen

    def choose(self, rng: random.Random):
        return self.picks.next(rng, self.inputs)

    def play(self, rng: random.Random) -> None:
        super().play(rng)
        self.picks.ended()

    def _frame(self, image, screen) -> None:
        where = f"{type(self.app.mode).__name__} screen of {self.game}"
        drawn = self.app.language                 # `screen` is this moment in its language
        for self.app.language in LANGUAGES:       # the same moment at a table in each language
            shown = screen if self.app.language == drawn else self.app.screen()
            self.seen.append(Seen(self.app.language, where, shown))
            self.lost += lost_words(self.app, shown, where)


def lost_words(app, shown, where: str) -> list[str]:
    """The play screen shows a page of its prompt's whole text (the text above a menu, a
    number, the scores), or says what it lost."""
    if not isinstance(app.mode, Playing) or app.overlay is not None:
        return []
    text = app.t(app.view()[0].text)
    lines = list(shown.lines)
    if any(lines[:len(page)] == page for room in TEXT_ROOMS for page in pages(text, room)):
        return []
    return [f"{app.language}, {where}: {lines} is no page of {text!r}"]


def playouts(spec) -> list[tuple[tuple[str, ...], int]]:
    """(players, seed): the conformance's fewest and most players, each named with 10 letters
    (the longest names a roster takes), at the seed its texts are rendered with, and the
    bench's table at its quick run's seed."""
    return [(TEN_LETTERS[:n], seed) for n in player_counts(spec) for seed in CONFORMANCE_SEEDS] + \
        [(bench_players(spec), seed) for seed in QUICK.seeds]


def bench_players(spec) -> tuple[str, ...]:
    """The bench's seats: four, or the nearest count the game takes."""
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return bench.PLAYERS[:min(max(bench.SEATS, low), high)]


@pytest.mark.parametrize("game", SPECS)
def test_no_frame_of_a_random_playout_is_cut_nor_loses_a_word(tmp_path, monkeypatch, game):
    # what is on the screen is the question here, not the journal's way to the disk; every
    # frame is drawn as the table draws it, so a text that lays out but does not draw fails too
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    spec, seen, lost = SPECS[game], [], []
    for n, (players, seed) in enumerate(playouts(spec)):
        table = Played(tmp_path / str(n), spec, players, seed)
        table.play(random.Random(seed))
        seen += table.seen
        lost += table.lost
    assert_uncut(seen)
    assert not lost, "\n".join(lost[:10])


# ---- every menu, at every highlight ------------------------------------------------------

def explore(tmp_path, language: str, start, lines: str = "", depth: int = DEPTH,
            known: set | None = None) -> list[Seen]:
    """The frames of a menu (reached by `start(table)` and `lines`) at each of its items, then
    of each item taken, a new table for each, down to `depth` menus; a menu seen before is
    not explored again."""
    known = set() if known is None else known
    table = start(Watched(tmp_path / str(len(known)), language)).run(lines)
    menu = getattr(table.app.mode, "menu", None)
    signature = (type(table.app.mode).__name__, tuple(key for key, _ in menu.items) if menu else ())
    if menu is None or signature in known or depth == 0:
        return table.seen
    known.add(signature)
    seen = table.run("press down\n" * len(menu.items)).seen
    for n in range(len(menu.items)):
        seen += explore(tmp_path, language, start,
                        lines + "press down\n" * n + "press select\n", depth - 1, known)
    return seen


def idle(table):
    return table


def kiosk(table):
    table.app.attach(*kiosk_plugins(KioskConfig(enabled=True), RecordedSystem()))
    return table


def in_game(game: str):
    def start(table):
        return table.start(game, ",".join(TEN_LETTERS[:3]))
    return start


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_menu_of_the_game_select_and_the_setup_is_cut(tmp_path, language):
    seen = explore(tmp_path / "select", language, idle)       # and every game's setup steps
    seen += explore(tmp_path / "offer", language, idle, "tap 1#1\n")      # the pirates' two games
    seen += explore(tmp_path / "admin", language, kiosk, "tap staff#1\n", 2)
    assert_uncut(seen)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", SPECS)
def test_no_menu_of_a_game_is_cut(tmp_path, game, language):
    seen = explore(tmp_path / "menu", language, in_game(game), "hold select\n", 2)
    seen += explore(tmp_path / "admin", language, lambda t: in_game(game)(kiosk(t)),
                    "tap staff#1\n", 2)
    assert_uncut(seen)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", SPECS)
def test_no_house_rule_is_cut_at_any_value(tmp_path, game, language):
    """Each option at each value it offers, highlighted: on its line, in the menu's window."""
    table = Watched(tmp_path, language)
    rules = HouseRules(Setup(SPECS[game]))
    seen = []
    for option in SPECS[game].options:
        rules.menu.select_key(option.key)
        for value in option.menu_values():
            rules.values[option.key] = value
            seen.append(Seen(language, f"house rules of {game}, {option.key}={value}",
                             rules.screen(table.app)))
        numbers = option_numbers(option)
        if numbers is not None:                 # open for UP/DOWN at its top: brackets and all
            rules.editing = option.key, NumberPicker(numbers, numbers[-1])
            seen.append(Seen(language, f"house rules of {game}, {option.key} open at {numbers[-1]}",
                             rules.screen(table.app)))
            rules.editing = None
    assert_uncut(seen)
