"""What a first-time table meets, read off the frames: a long instruction pages and keeps every
word; a card on Palourde's own deal screen is the first card; a message over a number or a
menu takes nothing from it; BACK goes back a step and cancels a number; a held SELECT opens
the menu over a message; a player's card says whose seat it took."""
from __future__ import annotations

from device.inputs import ButtonPressed
from device.players.roster import Roster, new_player
from device.ui.layout import layout
from device.ui.paging import PAGE_SECONDS

from .table import SimTable, to_game

LONG = "Maximilian,Bartholome,Christophe"
# Tamalou: the opening discard, then Maximilian takes it.
TAKE_DISCARD = "tap 9S\nwait 3\npress down\npress select"


def words(table: SimTable) -> list[str]:
    return " ".join(table.screen.lines).split()


def test_a_long_instruction_pages_with_a_mark_and_turns_by_itself(tmp_path):
    table = SimTable(tmp_path).start("tamalou", LONG, "Maximilian").run(TAKE_DISCARD)
    first = table.text.splitlines()
    assert first[1:] == ["  Maximilian: put the", "  top card in your", "  square, v"]
    assert not layout(table.screen).cuts
    table.run(f"wait {PAGE_SECONDS}")
    second = words(table)
    assert second == "discard the one it replaces and tap it".split()
    table.run(f"wait {PAGE_SECONDS}")                  # round to the first page again
    assert table.text.splitlines() == first


def test_down_turns_a_long_instructions_page_then_goes_to_the_scores(tmp_path):
    table = SimTable(tmp_path).start("tamalou", LONG, "Maximilian").run(TAKE_DISCARD)
    table.run("press down")
    assert words(table)[-2:] == ["tap", "it"]
    assert table.app.view()[0].id == "take_discard"       # the page turned, nothing else
    table.run("press down")
    assert table.screen.header_right == "Scores"


def test_the_french_accusation_keeps_its_counter_and_its_select(tmp_path):
    table = SimTable(tmp_path, "fr").start("auberge", LONG, dealt=False)
    table.run("press select\ntap 5#1\ntap 3#1\ntap 8#1\nwait 3\npress down\npress down\n"
              "press select\npress select")
    assert table.screen.lines == ("Maximilian\u00a0: montre", "ta main à Bartholome,",
                                  "passe tes cartes 0/2", "puis SELECT")


def test_a_card_on_palourdes_own_deal_screen_is_the_first_card(tmp_path):
    table = SimTable(tmp_path).run("press select\npress select\ntap basket#1\ntap basket#2\n"
                                "press select\ntap basket#1")
    assert table.screen.lines[-1] == "SELECT when done"
    table.run("tap clam#1")
    assert table.screen.lines[:2] == ("P1: flip 2nd", "card, tap it")
    assert table.app.session.state.phase == "flip2"


def test_down_that_clears_a_message_leaves_the_number_under_it(tmp_path):
    table = SimTable(tmp_path).start("flouk", "Ann,Bob,Cy", dealt=False)
    table.run("press select\npress select\nwait 3\ntap chief_faar#1\ntap chief_napil#1\n"
              "tap mouta#1\npress up\npress select\npress select")
    assert table.screen.lines == ("Faar Chief: white 0", "Noted for next time")
    table.run("press down")
    assert table.screen.lines[-1] == "[0]0"             # not [9]0: the press only cleared
    table.run("press down")
    assert table.screen.lines[-1] == "[9]0"


def test_back_on_a_house_rule_number_cancels_it(tmp_path):
    table = SimTable(tmp_path).run(to_game("auberge") + "press up")      # the last rule
    assert table.screen.lines[table.screen.highlight] == "Max players       7"
    table.run("press select\npress up")
    assert table.screen.lines[:2] == ("UP/DOWN: the digit", "SELECT, BACK=cancel")
    assert table.screen.lines[table.screen.highlight] == "Max players    [1]7"
    table.run("press back")
    assert table.screen.lines[table.screen.highlight] == "Max players       7"
    assert table.screen.lines[0] == "House rules"


def test_holding_select_over_a_message_opens_the_menu(tmp_path):
    table = SimTable(tmp_path).start("tamalou", "Ann,Bob,Cy").run("tap 9S")
    assert table.screen.lines[0] == "Opening discard:"
    table.run("hold select")
    assert table.screen.header == "MENU"


def cafe(state_dir) -> None:
    roster = Roster(state_dir)
    for name in ("Cy", "Bob", "Ann"):
        roster.add(new_player(name))
    roster.give_card("04A1B2C3", "Ann")


def test_a_player_card_says_whose_seat_it_took(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(to_game("tamalou") + "press select\npress down\npress select\n"
                                "tap uid:04A1B2C3")
    assert table.screen.lines[:2] == ("Ann: seat 1", "Seat 2/3: who?")
    assert not table.app.mode.knows("04FFFFFF") and table.app.mode.knows("04A1B2C3")


def test_back_at_the_first_seat_goes_back_to_the_player_count(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(to_game("tamalou") + "press select\npress down\npress select")
    assert table.screen.lines[0] == "Seat 1/3: who?"
    table.run("press back")
    assert table.screen.lines[0] == "How many players?"
    assert table.screen.lines[table.screen.highlight] == "3 players"     # the count kept
    table.run("press back")
    assert table.screen.lines[0] == "House rules"
    table.run("press back")
    assert table.screen.header == "TABLETOP"


def test_a_paged_prompt_asks_the_loop_to_wake_for_its_next_page(tmp_path):
    table = SimTable(tmp_path).start("tamalou", LONG, "Maximilian").run(TAKE_DISCARD)
    due = table.app.next_deadline()
    assert due is not None and due <= table.clock.monotonic() + PAGE_SECONDS
    table.app.handle(ButtonPressed("DOWN"))
    assert words(table)[-2:] == ["tap", "it"]


def test_a_later_page_is_marked_as_following_an_earlier_one(tmp_path):
    table = SimTable(tmp_path).start("tamalou", LONG, "Maximilian").run(TAKE_DISCARD + "\npress down")
    assert table.text.splitlines()[1:] == ["  discard the one it ^", "  replaces and tap it"]


def test_up_after_the_deal_has_no_deal_to_read_again(tmp_path):
    table = SimTable(tmp_path).run("press select\npress select\ntap basket#1\ntap basket#2\n"
                                "press select\ntap basket#1\ntap clam#1\ntap storm_warning\n"
                                "press select\npress up")
    assert table.screen.lines[0] == "Storm! Discard it,"


def test_select_that_clears_a_message_leaves_the_number_under_it(tmp_path):
    table = SimTable(tmp_path).start("flouk", "Ann,Bob,Cy", dealt=False)
    table.run("press select\npress select\nwait 3\ntap chief_faar#1\ntap chief_napil#1\n"
              "tap mouta#1\npress back\npress select\npress select")
    assert table.screen.lines == ("Faar Chief: white 0", "Noted for next time")
    table.run("press select")
    assert table.screen.lines[:2] == ("Napil Chief:", "white number?")
    assert table.screen.lines[-1] == "[0]0"              # still on its tens: nothing moved


def test_back_from_who_starts_asks_the_last_seat_again(tmp_path):
    cafe(tmp_path)
    table = SimTable(tmp_path).run(to_game("tamalou") + "press select\npress down\n"
                                   "press select\npress select\npress select\npress select")
    assert table.screen.lines[0] == "Who starts?"
    table.run("press back")
    assert table.screen.lines == ("Seat 3/3: who?", "Cy", "P3")
    table.run("press select")
    assert table.screen.lines[1:] == ("Ann", "Bob", "Cy")


def test_the_peek_reminder_of_a_long_name_is_whole(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Maximilian,Bartholome,Christophe")
    table.run("tap shrimp#1\ntap shrimp#2\npress back\npress select")
    note = table.app.t(table.app.game().spec.reminder(table.app.game().state))
    assert " ".join(table.screen.lines).endswith(note.replace("\n", " "))
    assert not layout(table.screen).cuts
