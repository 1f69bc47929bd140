"""Flouk's card data: the shipped file, and clear errors for a bad one."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
import seeds
from device.cli.replay import replay_text
from engine import ConfigError, make_config
from engine.core.codec import config_from_plain, config_to_plain
from engine.core.script import ScriptError
from engine.games.flouk.cards import (
    ALL_CARDS,
    UNKNOWN,
    CardInfo,
    Effect,
    Scoring,
    card_problems,
    check_data,
    default_info,
    read_cards,
    unknown_details,
)

SPEC = engine.get("flouk")
SHIPPED = seeds.game_data("flouk", "flouk")


def edited(card: str, **fields) -> dict:
    """The shipped data with one card's fields replaced (None deletes a field)."""
    data = copy.deepcopy(SHIPPED)
    for key, value in fields.items():
        if value is None:
            data["cards"][card].pop(key, None)
        else:
            data["cards"][card][key] = value
    return data


def test_shipped_file_holds_what_the_rulebook_states():
    cards = read_cards(SHIPPED)
    assert len(cards) == 100 and [c.card for c in cards] == list(ALL_CARDS)
    assert seeds.load("flouk").counts()["action"] == 33
    by_id = {c.card: c for c in cards}
    assert by_id["decree#1"].scoring == Scoring("people_multiplier", people="bloup", factor=2)
    assert [c for c in cards if c != default_info(c.card)] == [by_id["decree#1"]]
    # §5.1: the rulebook says neither which Actions belong to a people nor any white number
    assert all(by_id[f"action#{n}"] == CardInfo(f"action#{n}", UNKNOWN, None, Effect()) for n in range(1, 34))
    assert all(unknown_details(c) == ("white",) for c in cards if c.card.startswith("chief_"))
    assert seeds.card_file_problems("flouk", seeds.read_text("flouk")) == []


def test_state_keeps_only_the_data_that_differs_from_the_rulebook():
    state = SPEC.initial(make_config(SPEC, ["A", "B", "C"], data=SHIPPED))
    assert [c.card for c in state.card_data] == ["decree#1"]


def test_the_checked_config_survives_a_journal_round_trip():
    config = make_config(SPEC, ["A", "B", "C"], data=SHIPPED)
    again = config_from_plain(json.loads(json.dumps(config_to_plain(config))))
    assert SPEC.initial(again) == SPEC.initial(config)


@pytest.mark.parametrize("data,problem", [
    (edited("action#7", type="spell"), "action#7: type: unknown type 'spell'"),
    (edited("chief_faar#1", type="flouk"), "chief_faar#1: type: 'flouk' does not match the card id"),
    (edited("mouta#3", people=None), 'mouta#3: people: missing (this card is "mouta")'),
    (edited("action#2", people="martian"), "action#2: people: 'martian' is not one of unknown, neutral"),
    (edited("chief_napil#2", white="7"), "chief_napil#2: white: '7' is not a whole number"),
    (edited("action#4", white=-1), "action#4: white: -1 is not a whole number"),
    (edited("action#9", effect={"mode": "teleport"}), "action#9: effect.mode: unknown mode 'teleport'"),
    (edited("action#9", effect={"mode": ["manual"]}), "action#9: effect.mode: unknown mode ['manual']"),
    (edited("decree#2", scoring={"kind": {"a": 1}}), "decree#2: scoring.kind: {'a': 1} is not one of"),
    (edited("action#9", effect={"mode": "draw_from_pile"}), "action#9: effect.n: missing a whole number"),
    (edited("chief_bloup#1", power={"mode": "move_village_card", "from": "everyone"}),
     "chief_bloup#1: power.from: 'everyone' is not one of choose_opponent, any"),
    (edited("decree#3", scoring={"kind": "people_multiplier", "people": "bloup"}),
     "decree#3: scoring.factor: missing a whole number"),
    (edited("decree#4", scoring={"kind": "conditional", "if": {"max": 2}, "then": {"kind": "flat_bonus", "n": 1}}),
     "decree#4: scoring.if: must be"),
    (edited("mouta#1", colour="red"), "mouta#1: colour: unknown field for a flouk"),
    ({"cards": {k: v for k, v in SHIPPED["cards"].items() if k != "decree#7"}},
     "decree#7: missing: every one of the 100 cards needs a table"),
    ({"cards": dict(SHIPPED["cards"], **{"decree#8": {"type": "decree"}})}, "'decree#8': unknown card id"),
    ({"cards": dict(SHIPPED["cards"], **{"action#1": "manual"})}, "action#1: must be a table of fields"),
    (None, 'no [cards."<id>"] tables'),
    ([1, 2], 'no [cards."<id>"] tables'),
])
def test_a_bad_file_names_the_card_and_the_field(data, problem):
    with pytest.raises(ConfigError, match="^Flouk card data: ") as caught:
        make_config(SPEC, ["A", "B", "C"], data=data)
    assert problem in str(caught.value)
    assert any(problem in p for p in card_problems(data))


def test_replay_reports_bad_card_data_as_a_script_error():
    with pytest.raises(ScriptError, match="action#7: type"):
        replay_text("game flouk\nplayers A B C\nselect\n", edited("action#7", type="spell"))


def test_check_card_file_lists_every_problem():
    text = seeds.read_text("flouk").replace('[cards."decree#7"]', '[cards."decree#8"]')
    text = text.replace('people = "parok"\n\n[cards."parok#2"]', 'people = "bloup"\n\n[cards."parok#2"]')
    assert seeds.card_file_problems("flouk", text) == [
        "'decree#8': unknown card id (ids: mouta#1..10, chief_mouta#1..2, decree#1..7, action#1..33)",
        'parok#1: people: \'bloup\' does not match the card id ("parok")',
        "decree#7: missing: every one of the 100 cards needs a table"]
    assert seeds.card_file_problems("flouk", "[cards")[0].startswith("not a valid TOML file")


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 1000) | st.text(max_size=8)
                    | st.sampled_from(["manual", "bloup", "chief", "flouk", "conditional", "any"]),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["type", "people", "white", "power", "effect",
                                                       "scoring", "mode", "kind", "n", "if", "then",
                                                       "filter", "from", "target", "factor",
                                                       "min_count", "distinct_peoples", "text"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(card=st.sampled_from(ALL_CARDS), table=JSON)
def test_a_hand_edited_card_never_crashes(card, table):
    data = copy.deepcopy(SHIPPED)
    data["cards"][card] = table
    try:
        checked = check_data(data)
    except ConfigError as error:
        assert card in str(error)
    else:
        assert len(read_cards(checked)) == 100
