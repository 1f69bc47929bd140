"""Numbers set with the buttons: tens, then units, UP/DOWN on each digit, so a Flouk white
number from 0 to 99 is never more than 12 presses away; a house rule's number the same way,
one with no top in the rules (Tamalou's failed-call penalty) up to 99, with a line saying which
buttons do what; BACK from the tens leaves it as it was, as BACK cancels in every menu."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.ui.house_rules import OPTION_COLUMNS
from device.ui.number import DONE, LEFT, NumberPicker
from device.ui.wizard import OPEN_TOP, option_numbers
from engine.core.registry import all_specs

from .table import SimTable, to_game
from .test_frames import FLOUK_TURN_2

BUTTONS = ("up", "down", "select", "back")
TRIBORD = to_game("tribord")
TAMALOU = to_game("tamalou")


def fewest_presses(values: range, start: int) -> dict[int, list[str]]:
    return NumberPicker(values, start).fewest_presses()


def test_every_white_number_is_at_most_12_presses_away():
    found = fewest_presses(range(100), 0)
    assert sorted(found) == list(range(100))
    counts = {value: len(presses) for value, presses in found.items()}
    assert max(counts.values()) == 12 and counts[55] == 12
    assert counts[0] == 2 and counts[9] == 3 and counts[90] == 3 and counts[19] == 4


@given(st.sampled_from([range(100), range(1, 100), range(0, 61), range(2, 7)]), st.data())
def test_the_fewest_presses_set_each_number(values, data):
    start = data.draw(st.sampled_from(values))
    plans = NumberPicker(values, start).fewest_presses()      # one search serves every target
    assert sorted(plans) == list(values)
    for target in values:
        picker = NumberPicker(values, start)
        assert [picker.press(name) for name in plans[target]][-1] == DONE and picker.value == target
    assert NumberPicker(values, start).presses_to(values[-1]) == plans[values[-1]]


def test_a_house_rule_number_starts_from_its_value_and_stays_in_its_range():
    found = fewest_presses(range(1, 100), 10)                # A tribord!'s start tokens
    assert sorted(found) == list(range(1, 100))
    assert max(len(presses) for presses in found.values()) <= 12
    assert found[9] == ["down", "select", "down", "select"]  # tens 0 keeps 1..9: 1, then 9


@given(st.lists(st.sampled_from(BUTTONS), max_size=60),
       st.sampled_from([range(100), range(1, 100), range(0, 61), range(2, 7)]))
def test_no_press_leaves_the_range(presses, values):
    picker = NumberPicker(values, values[0])
    for name in presses:
        if picker.press(name) in (DONE, LEFT):
            picker = NumberPicker(values, picker.value)
        assert picker.value in values
        assert picker.shown().replace("[", "").replace("]", "").lstrip("0") == str(picker.value).lstrip("0")


def white_prompt(tmp_path) -> SimTable:
    """Flouk at its first white number: the Mouta Chief's."""
    table = SimTable(tmp_path).start("flouk")
    table.run(FLOUK_TURN_2.split("    press select\n    press select")[0])
    assert table.app.view()[0].id == "learn"
    return table


def test_a_white_number_is_set_tens_then_units_as_the_screen_shows(tmp_path):
    table = white_prompt(tmp_path)
    assert table.screen.lines == ("Mouta Chief:", "white number?", "UP/DOWN, then SELECT", "[0]0")
    table.run("press down\npress down\npress down")         # tens round past 0: 9, 8, 7
    assert table.screen.lines[3] == "[7]0"
    table.run("press select\npress down\npress down\npress down\npress down\npress down")
    assert table.screen.lines[3] == "7[5]"
    table.run("press back")                                  # back to the tens, 75 kept
    assert table.screen.lines[3] == "[7]5"
    table.run("press select\npress select")
    assert table.app.session.state.learned[-1] == ("chief_mouta#1", "white", 75)


def test_back_on_the_tens_is_the_game_s_back_and_keeps_the_number(tmp_path):
    table = white_prompt(tmp_path)
    table.run("press up\npress back")                      # a card's number has no way back
    assert table.screen.lines == ("UP/DOWN, then SELECT",)
    table.run("wait 2")
    assert table.screen.lines[3] == "[1]0"


def row(name: str, value: str) -> str:
    return name + value.rjust(OPTION_COLUMNS - len(name))


def rule(table: SimTable, name: str) -> str:
    """The house rule's line on screen, wherever the menu scrolled it."""
    found = [line for line in table.screen.lines if line.startswith(name)]
    assert found, table.text
    return found[0]


def house_rules(tmp_path) -> SimTable:
    """A tribord!'s house rules, the start tokens (10) open for UP/DOWN."""
    table = SimTable(tmp_path).run(TRIBORD + "press down\npress select")
    assert rule(table, "Start tokens") == row("Start tokens", "[1]0")
    return table


def test_nine_start_tokens_are_four_presses(tmp_path):
    table = house_rules(tmp_path).run("press down\npress select\npress down\npress select")
    assert rule(table, "Start tokens") == row("Start tokens", "9")
    table.run("press up\npress select\npress select\npress select")    # Start game, 3 players
    assert table.screen.lines[:2] == ("Give 9 tokens", "each. SELECT")


def test_back_from_the_tens_cancels_the_edit(tmp_path):
    table = house_rules(tmp_path)
    assert table.screen.lines[:2] == ("UP/DOWN: the digit", "SELECT, BACK=cancel")
    table.run("press up\npress up\npress select\npress up\npress back")
    assert rule(table, "Start tokens") == row("Start tokens", "[3]1")     # back to the tens
    table.run("press back")
    assert rule(table, "Start tokens") == row("Start tokens", "10")      # as it was
    assert table.screen.lines[0] == "House rules"
    table.run("press down\npress select")                   # the rows move again; on/off cycles
    assert rule(table, "First pair") == row("First pair", "redeal")
    assert rule(table, "Start tokens") == row("Start tokens", "10")


NUMBERS = [(spec.id, option) for spec in all_specs() for option in spec.options
           if option.kind == "int"]


@pytest.mark.parametrize(("game", "option"), NUMBERS, ids=[f"{g}-{o.key}" for g, o in NUMBERS])
def test_every_house_rule_number_takes_up_down_within_its_range(game, option):
    numbers = option_numbers(option)
    assert numbers is not None, f"{game}'s {option.key} still cycles presets"
    assert option.default in numbers
    assert all(option.parse(str(value)) == value for value in (numbers[0], numbers[-1]))
    assert numbers[-1] == (OPEN_TOP if option.maximum is None else option.maximum)


def failed_call_rule(tmp_path) -> SimTable:
    """A Tamalou's house rules, the failed-call penalty (0, no top in the rules) open."""
    table = SimTable(tmp_path).run(TAMALOU + "press down\n" * 7 + "press select")
    assert rule(table, "Failed call +") == row("Failed call +", "[0]0")
    return table


def test_a_failed_call_penalty_is_set_tens_then_units_and_reaches_the_game(tmp_path):
    table = failed_call_rule(tmp_path).run("press up\npress select\npress up\npress up\n"
                                           "press up\npress up\npress up")
    assert rule(table, "Failed call +") == row("Failed call +", "1[5]")
    table.run("press select")
    assert rule(table, "Failed call +") == row("Failed call +", "15")
    table.run("press up\n" * 7 + "press select\n" * 4)     # Start game, 2 players, P1, dealt
    assert dict(table.app.session.state.options)["caller_fail_penalty"] == 15


def test_a_failed_call_penalty_never_goes_below_nothing(tmp_path):
    table = failed_call_rule(tmp_path).run("press down")      # the tens go round: 9, never -1
    assert rule(table, "Failed call +") == row("Failed call +", "[9]0")
    table.run("press select\n" + "press up\n" * 9)           # nine held-UP repeats: 99 is the top
    assert rule(table, "Failed call +") == row("Failed call +", "9[9]")
    table.run("press up")
    assert rule(table, "Failed call +") == row("Failed call +", "9[0]")


def test_back_leaves_the_failed_call_penalty_as_it_was(tmp_path):
    table = failed_call_rule(tmp_path).run("press up\npress up\npress back")
    assert rule(table, "Failed call +") == row("Failed call +", "0")
    table.run("press down")                                 # the rows move again
    assert rule(table, "Failed call +") == row("Failed call +", "0")
    table.run("press up\n" * 8 + "press select\n" * 4)
    assert dict(table.app.session.state.options).get("caller_fail_penalty", 0) == 0


def shown_numbers(lines: tuple[str, ...]) -> list[int]:
    """The numbers the house rules' number rows show, read without the brackets."""
    return [int(line[len(name):].replace("[", "").replace("]", ""))
            for line in lines for name in ("Failed call +", "Last snaps (s)")
            if line.startswith(name)]


@given(st.lists(st.sampled_from(BUTTONS), max_size=40))
def test_no_press_takes_a_tamalou_number_out_of_its_range(tmp_path_factory, presses):
    table = failed_call_rule(tmp_path_factory.mktemp("tamalou"))
    rules = table.app.mode
    numbers = [(o.key, option_numbers(o)) for o in rules.setup.spec.options if o.kind == "int"]
    for name in presses:
        table.run(f"press {name}")
        if table.app.mode is not rules:                     # started, or back to the games
            break
        assert all(rules.values[key] in values for key, values in numbers)
        assert all(0 <= value <= OPEN_TOP for value in shown_numbers(table.screen.lines))
