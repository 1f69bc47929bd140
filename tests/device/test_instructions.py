"""What the table must do with its cards and tokens: said by name, kept on screen until the next
input, shown again with UP; and a headline never keeps a press from the prompt under it."""
from __future__ import annotations

import pytest

import engine
from engine.core.text import catalog

from .table import SimTable

PALOURDE = ("palourde", "Ann,Bob,Cy")
# Ann's clam pair, Bob's crab pair (BACK clears the instruction), Bob robs Ann (SELECT).
THEFT = "tap clam#1\ntap clam#2\npress back\ntap crab#1\ntap crab#2\npress back\npress select"


def test_an_instruction_names_its_player_and_stays_until_the_next_input(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run(THEFT)
    theft = ("Bob: take 1 clam", "from Ann's Basket", "Cy plays next")
    assert table.screen.lines == theft
    table.run("wait 30")
    assert table.screen.lines == theft                # still there for whoever looked away
    table.run("press back")                           # read: the press does nothing else
    assert table.screen.lines == ("Cy: flip 2 cards,", "tap each", "Ann 1  Bob 1  Cy 0")
    assert table.app.session.state.phase == "flip1"


def test_a_tap_is_the_next_input_too(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap clam#1\ntap clam#2\ntap shell#1")
    assert table.screen.lines == ("Bob: flip 2nd", "card, tap it", "Ann 2  Bob 0  Cy 0")


def test_a_message_that_only_informs_still_goes_by_itself(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap clam#1\ntap clam#2\npress back\n"
                                                  "tap basket#1")
    assert table.screen.lines == ("Ann: 2 clams",)
    table.run("wait 2")
    assert table.screen.lines[0] == "Bob: flip 2 cards,"


def test_up_shows_the_turns_instructions_again(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run(THEFT + "\npress back\npress up")
    assert table.screen.lines == ("Crab + Crab!", "Bob: discard both", "Crabs")
    table.run("press up")
    assert table.screen.lines == ("Bob: take 1 clam", "from Ann's Basket", "Cy plays next")
    table.run("press up")
    assert table.screen.lines[0] == "Cy: flip 2 cards,"


def test_up_before_any_instruction_says_so(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("press up")
    assert table.screen.lines == ("No instructions", "to show again")


def test_an_undone_instruction_is_not_shown_again(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap clam#1\ntap clam#2\npress back\n"
                                                  "hold back\npress select\nwait 2\npress up")
    assert table.screen.lines == ("No instructions", "to show again")


def test_a_high_tide_flipped_second_says_to_turn_the_first_back(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap shell#1\ntap high_tide#1")
    assert table.screen.lines == ("High Tide! 1/3", "Ann: leave it up,", "turn the Shell back",
                                  "Bob plays next")
    table = SimTable(tmp_path / "first").start(*PALOURDE).run("tap high_tide#1")
    assert table.screen.lines == ("High Tide! 1/3", "Ann: leave it up", "Bob plays next")


def test_a_wrong_snap_names_who_takes_the_card_back(tmp_path):
    table = SimTable(tmp_path).start("tamalou", "Ann,Bob,Cy", "Ann")
    table.run("tap 7C\nwait 2\ntap 5H\npress down\npress select\nwait 9")
    assert table.screen.lines == ("Bob: wrong! Take", "it back + draw 1", "penalty card")


STORM = ("Storm! Discard it,", "shuffle the Beach;", "High Tides stay up", "SELECT when done")


def test_storms_instruction_shows_at_once_and_select_works_on_its_first_press(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap storm_warning")
    assert table.screen.lines == STORM     # no "Storm!" alone over it: the prompt says it
    table.run("press select")
    assert table.app.session.state.phase == "flip1"
    assert table.screen.lines[0] == "Bob: flip 2 cards,"


def test_up_shows_the_storms_instruction_again_once_it_is_done(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run("tap storm_warning\npress select\npress up")
    assert table.screen.lines == STORM
    assert table.app.session.state.phase == "flip1"


def test_up_on_a_menus_first_item_reads_the_instructions_again(tmp_path):
    victim = THEFT.rsplit("\n", 1)[0]                 # Bob's Crab pair: whom does he rob?
    table = SimTable(tmp_path).start(*PALOURDE).run(victim)
    assert table.screen.menu is not None and table.screen.highlight == table.screen.menu[0]
    table.run("press up")
    assert table.screen.lines == ("Crab + Crab!", "Bob: discard both", "Crabs")
    table.run("press back\npress down\npress up")    # elsewhere in the menu UP moves
    assert table.screen.highlight == table.screen.menu[0]


def test_the_hold_select_menu_reads_the_instructions_again(tmp_path):
    table = SimTable(tmp_path).start(*PALOURDE).run(THEFT + "\npress back\nhold select")
    for _ in range(8):                                 # down the menu to its item
        if table.screen.lines[table.screen.highlight] == "Last instructions":
            break
        table.run("press down")
    table.run("press select")
    assert table.screen.lines == ("Crab + Crab!", "Bob: discard both", "Crabs")


@pytest.mark.parametrize("spec", engine.all_specs(), ids=lambda spec: spec.id)
def test_every_instruction_is_a_text_of_its_game_in_each_language(spec):
    for language in ("en", "fr"):
        missing = [key for key in spec.instructions if key not in catalog(language)]
        assert not missing, f"{spec.id} ({language}): {missing}"
