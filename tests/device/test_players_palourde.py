"""Palourde's seats named from the café's roster: the setup counts the fishermen, names the
holder of each Basket by the menu or a player card, asks who is youngest, and the names reach
the screen, the journal, the fleet's state and `status --json` as for the other games."""
from __future__ import annotations

from device.cli import main
from device.fleet.table_state import table_state
from device.players.roster import Roster

from .simpty import PtySim
from .simrun import status
from .table import SimTable, to_game, too_wide
from .test_players import CARD, cafe
from .test_sim_palourde import PLAY

# House rules as they are, 3 fishermen; Basket 1 Anna (the menu), Basket 2 Bob (his card),
# Basket 3 unnamed; Bob is the youngest; the Beach laid.
COUNTED = to_game("palourde") + "press select\npress down\npress select\n"
NAMED = COUNTED + f"press select\ntap uid:{CARD}\npress down\npress select\n"
SETUP = NAMED + "press down\npress select\npress select\n"


def test_each_basket_is_offered_the_roster_then_its_number(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(COUNTED)
    assert table.screen.lines == ("Basket 1/3: who?", "Anna", "Cy", "Bob")
    table.run(f"press select\ntap uid:{CARD}")
    assert table.screen.lines == ("Bob: seat 2", "Basket 3/3: who?", "Cy", "P3")
    table.run("press down\npress select")
    assert table.screen.lines == ("Youngest fisherman?", "Anna", "Bob", "P3")
    assert not [line for screen in table.screens for line in too_wide(screen)]


def test_names_reach_the_screen_the_journal_the_roster_and_the_fleet(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(SETUP)
    assert table.app.session.config.players == ("Anna", "Bob", "P3")
    assert table.app.session.config.first == "Bob"
    assert "Bob: flip 2 cards," in table.screen.lines
    table.run("tap basket#2")                          # a Basket shows its holder's clams
    assert "Bob: 0 clams" in table.text
    state = table_state(table.app)
    assert [p["name"] for p in state["game"]["players"]] == ["Anna", "Bob", "P3"]
    assert state["game"]["turn"] == "Bob"
    assert [p.short for p in Roster(tmp_path).players()][:2] == ["Anna", "Bob"]
    resumed = SimTable(tmp_path)                          # a power cut: the journal keeps the names
    resumed.app.resume_game()
    assert resumed.app.session.config.players == ("Anna", "Bob", "P3")


def test_without_a_roster_the_fishermen_still_join_by_basket(tmp_path):
    table = SimTable(tmp_path).run(to_game("palourde") + "press select\n")
    assert table.app.session is not None and table.app.session.config.players == ()


def test_a_whole_game_in_the_sim_terminal_names_the_fishermen(tmp_path, capsys):
    """test_sim_palourde's game in a pseudo-terminal, its three seats named: the same play,
    the same scores, under the names picked and tapped at setup."""
    cafe(tmp_path)
    sim = PtySim(tmp_path)
    try:
        turn = sim.first_frame().type(SETUP).text_view()
        over = sim.type(PLAY + "wait 2").text_view()
        sim.type("press select")                            # the game is archived
        sim.key(b"\x04")
        assert sim.end() == 0
    finally:
        sim.close()
    assert "  Bob: flip 2 cards," in turn
    assert over[0] == "|GAME OVER    PALOURDE|"
    assert over[1:3] == ["  Golden Clam -> Anna,", "  Bob, P3"]
    result = status(tmp_path, capsys)
    assert result["over"] is True
    assert {p["name"]: p["score"] for p in result["players"]} == {"Anna": 1, "Bob": 1, "P3": 1}
    assert result["winners"] == ["Anna", "Bob", "P3"]
    assert main(["history", "--player", "Annabelle-Marie", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "Anna palourde: 1 played, 1 won\n"
