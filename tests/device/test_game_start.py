"""Every game starts the same way: a deal screen, from the menus or the command line, on which
the first card may already be tapped; and what is kept of the start (history, the exit line)."""
from __future__ import annotations

import io
import sys
from contextlib import closing

import pytest

import engine
from device.cli import main
from device.storage.history import open_history
from device.ui.wizard import Instruction

from . import test_sim_palourde
from .simrun import sim
from .table import SimTable, to_game

# The first card of each game whose first prompt asks for one, and what the screen says next.
FIRST_CARDS = {
    "palourde": ("clam#1", "Ann: flip 2nd"),
    "auberge": ("5#1", "All: 1 card face up"),
    "tribord": ("4#1", "tapped 1/2"),
    "tamalou": ("7C", "Opening discard:"),
}


@pytest.mark.parametrize("game", [spec.id for spec in engine.all_specs()])
def test_every_game_begun_from_the_command_line_shows_its_deal_first(tmp_path, game):
    table = SimTable(tmp_path).start(game, "Ann,Bob,Cy", dealt=False)
    assert isinstance(table.app.mode, Instruction)
    assert table.screen.lines[-1].endswith("SELECT") or "SELECT" in table.screen.lines[-1]
    table.run("press select")
    assert not isinstance(table.app.mode, Instruction)
    assert table.app.session.state.seq == 0


def test_palourde_with_its_players_given_deals_its_beach_first(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bob", dealt=False)
    assert table.screen.lines == ("Set aside unused", "Baskets + Golden Clam",
                                  "Shuffle 53 face down", "SELECT when done")


@pytest.mark.parametrize("game", FIRST_CARDS)
def test_a_card_tapped_on_the_deal_screen_is_the_first_card(tmp_path, game):
    card, shown = FIRST_CARDS[game]
    table = SimTable(tmp_path).start(game, "Ann,Bob,Cy", dealt=False).run(f"tap {card}")
    assert [str(event) for event in table.app.session.events] == [f"tap {card}"]
    assert any(line.startswith(shown) for line in table.screen.lines), table.text


def test_from_the_menus_too(tmp_path):
    # Tamalou: 2 players, P1 starts, then its deal screen, where the opening discard is tapped
    table = SimTable(tmp_path).run(to_game("tamalou") + "press select\npress select\npress select")
    assert isinstance(table.app.mode, Instruction)
    table.run("tap 7C")
    assert table.app.session is not None and len(table.app.session.events) == 1
    assert table.screen.lines[:2] == ("Opening discard:", "7 of clubs")


def test_a_deal_screen_that_asks_more_than_a_deal_keeps_the_card_out(tmp_path):
    table = SimTable(tmp_path).start("flouk", "Ann,Bob,Cy", dealt=False).run("tap mouta#1")
    assert table.screen.lines == ("Use the buttons",)
    assert table.app.session.events == ()
    table.run("wait 2")
    assert isinstance(table.app.mode, Instruction)


def test_a_tag_of_no_deck_on_the_deal_screen_is_refused_there(tmp_path):
    table = SimTable(tmp_path).start("tamalou", "Ann,Bob", dealt=False).run("tap uid:0A0B0C0D")
    assert table.screen.lines == ("Unknown card",)
    assert table.app.session.events == ()


def test_palourde_from_the_menus_deals_in_its_own_setup(tmp_path):
    table = SimTable(tmp_path).run(to_game("palourde") + "press select")
    assert table.screen.lines[0] == "Fishermen: tap your"


def test_flouks_header_names_no_turn_on_its_deal(tmp_path):
    table = SimTable(tmp_path).start("flouk", "Ann,Bob,Cy")
    assert table.screen.header_right == "R1"
    table.run("press select\nwait 2")
    assert table.screen.header_right == "R1 T1"


def test_history_records_who_started_a_palourde_game(tmp_path, monkeypatch, capsys):
    # the players join by their Baskets and P2's Basket names the youngest
    lines = test_sim_palourde.SETUP + test_sim_palourde.PLAY + "press select\n" * 2   # result, end
    assert sim(tmp_path, lines, monkeypatch=monkeypatch, capsys=capsys) == 0
    with closing(open_history(tmp_path)) as history:
        [game] = history.games()
    assert (game.game, game.first) == ("palourde", "P2")


class Typed(io.StringIO):
    """Lines as typed at a terminal: the run ends on Ctrl-D and says where the game is."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("lines,saved", [("press down\n", False),
                                         (to_game("tamalou") + "press select\n" * 4, True)])
def test_game_saved_is_said_only_when_a_game_was_started(tmp_path, monkeypatch, capsys, lines,
                                                          saved):
    monkeypatch.setattr(sys, "stdin", Typed(lines))
    assert main(["run", "--sim", "--state-dir", str(tmp_path)]) == 0
    assert ("Game saved in" in capsys.readouterr().err) is saved
