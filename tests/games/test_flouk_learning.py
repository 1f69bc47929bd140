"""Flouk learns a card's printed details at the table, from the shipped file.

The shipped file knows neither an Action's people nor any white number. The
device asks once, when a step of the resolution needs the detail; the answer is
a `choose` event like any other, so undo and a replay of the journal keep it.
"""
from __future__ import annotations

import copy

import engine
import seeds
from engine import make_config
from tests.support import outcome, run, scores

SPEC = engine.get("flouk")
SHIPPED = seeds.game_data("flouk", "flouk")
HEAD = "game flouk\nplayers P1 P2 P3\n"
# Turn 1: a Flouk each, so P1 has a Mouta, P2 a Faar and P3 a Bloup.
TURN1 = "select\ntap mouta#1\ntap faar#1\ntap bloup#1\n"


def play(lines: str, data=SHIPPED) -> dict:
    return outcome(HEAD + lines, data)


def messages(lines: str, data=SHIPPED) -> list[str]:
    return [m for r in run(HEAD + lines, data).records for m in r.messages]


def test_an_unknown_people_is_asked_when_the_action_resolves():
    asked = play(TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\n")
    assert asked["prompt"]["id"] == "learn"
    assert asked["prompt"]["text"] == "Action 12:\nwhich people?\nAs printed on it"
    assert asked["prompt"]["options"] == ["neutral", "mouta", "faar", "bloup", "napil", "parok"]
    assert asked["details"]["current"] == "P3" and asked["details"]["learned"] == {}
    assert asked["details"]["step"] == "action"      # the header's step: the one asked, not Flouks


def test_a_people_action_fails_without_a_member():
    lines = TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\nchoose napil\n"
    result = play(lines)
    assert "No Napil: no effect\nDiscard the Action" in messages(lines)
    assert "action#12" in result["details"]["discard"]
    assert result["prompt"]["id"] == "reveal" and result["details"]["turn"] == 3
    assert result["details"]["learned"] == {"action#12": {"people": "napil"}}


def test_a_people_action_with_a_member_runs_its_effect():
    lines = TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\nchoose bloup\n"
    result = play(lines)
    assert result["prompt"]["id"] == "report"            # the effect, applied by hand
    assert "Action 12: Bloup\nNoted for next time" in messages(lines)


def test_white_numbers_are_asked_then_order_the_step():
    # Turn 2: P1 and P3 reveal Actions; both white numbers are asked, in seat order from the lead.
    lines = TURN1 + "tap action#1\ntap faar#2\ntap action#2\n"
    first = play(lines)
    assert first["prompt"]["text"] == "Action 1:\nwhite number?\nUP/DOWN, then SELECT"
    assert first["prompt"]["options"] == [str(n) for n in range(100)]
    assert first["details"]["step"] == "action"
    second = play(lines + "choose 20\n")
    assert second["prompt"]["text"].startswith("Action 2:\nwhite number?")
    # Action 2 (white 5) now resolves before Action 1 (white 20): its people is asked first.
    ordered = play(lines + "choose 20\nchoose 5\n")
    assert ordered["prompt"]["text"].startswith("Action 2:\nwhich people?")
    assert ordered["details"]["queue"] == ["action#2", "action#1"]
    after = play(lines + "choose 20\nchoose 5\nchoose parok\nchoose neutral\n")
    said = messages(lines + "choose 20\nchoose 5\nchoose parok\nchoose neutral\n")
    assert said.index("No Parok: no effect\nDiscard the Action") < \
        said.index("Action 1: apply\neffect by hand")
    assert after["details"]["learned"] == {"action#1": {"white": 20, "people": "neutral"},
                                           "action#2": {"white": 5, "people": "parok"}}


def test_a_single_card_step_needs_no_white_number():
    result = play(TURN1 + "tap mouta#2\ntap faar#2\ntap chief_bloup#1\n")
    assert result["prompt"]["id"] != "learn"
    assert result["details"]["villages"]["P3"] == ["bloup#1", "chief_bloup#1"]


def test_a_wrong_answer_is_refused_and_changes_nothing():
    lines = TURN1 + "tap action#1\ntap faar#2\ntap action#2\n"
    before = play(lines)
    for bad in ("choose 100\n", "choose -1\n", "choose martian\n", "choose ٣\n"):
        refused = play(lines + bad)
        assert [r["code"] for r in refused["rejected"]] == ["E_NOT_EXPECTED"]
        assert refused["details"] == before["details"] and refused["prompt"] == before["prompt"]


def test_a_learned_detail_survives_undo_of_a_later_event_and_a_replay():
    lines = TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\nchoose napil\ntap mouta#3\n"
    undone = play(lines + "undo\n")
    assert undone["details"]["learned"] == {"action#12": {"people": "napil"}}
    assert undone["prompt"]["id"] == "reveal"
    # Undoing the answer itself asks again: the journal holds the answer as an event.
    asked_again = play(lines + "undo\nundo\n")
    assert asked_again["prompt"]["id"] == "learn" and asked_again["details"]["learned"] == {}
    # A replay of the same events (what resume does) reaches the same state.
    assert run(HEAD + lines, SHIPPED).session.state == run(HEAD + lines, SHIPPED).session.state


def test_a_detail_known_when_the_game_starts_is_never_asked():
    data = copy.deepcopy(SHIPPED)
    data["cards"]["action#12"]["people"] = "napil"
    result = play(TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\n", data)
    assert result["prompt"]["id"] == "reveal" and result["details"]["learned"] == {}
    make_config(SPEC, ["A", "B", "C"], data=data)          # a learned detail is valid card data


def test_every_learned_people_and_white_scores_as_the_rulebook_says():
    """A Bloup Action for P3 (who has a Bloup) is learned and counts like a typed one."""
    lines = TURN1 + "tap mouta#2\ntap faar#2\ntap action#12\nchoose bloup\nselect\n"
    result = play(lines)
    assert scores(result) == {"P1": 2, "P2": 2, "P3": 1}
    assert result["prompt"]["id"] == "reveal" and result["details"]["turn"] == 3
