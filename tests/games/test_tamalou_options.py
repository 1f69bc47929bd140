"""Tamalou beyond the scenarios of the rules: its house options, edge rules, the pure
helpers, invariants under random play, and its texts."""
from __future__ import annotations

import random

import pytest

import engine
from engine import Rejected, Session, Tap, legal_events, make_config, step
from engine.core.codec import dumps
from engine.core.text import catalog, msg
from engine.games.tamalou import scoring as TS
from tests.support import rejected_codes

from .test_tamalou import (
    EMPTY_P1,
    REVEAL_5_13_38,
    REVEAL_7_9_8,
    SHORT_ROUND,
    SPEC,
    TM01,
    TM02,
    TM09,
    TO_TM06,
    details,
    messages,
    play,
    state_of,
)

# ---- options and edge rules -------------------------------------------------------

def test_threshold_match_ends_with_the_round_that_reaches_it():
    round1 = TO_TM06 + TM09 + REVEAL_5_13_38
    assert play(round1, "option match=threshold:39\n")["prompt"]["id"] == "deal"
    ended = play(round1, "option match=threshold:38\n")
    assert ended["over"] and ended["winners"] == ["P1"]


def test_failed_caller_pays_the_match_penalty():
    result = play(SHORT_ROUND + REVEAL_7_9_8,
                  "option match=rounds:1\noption caller_fail_penalty=10\n")
    assert details(result)["totals"] == {"P1": 17, "P2": 9, "P3": 8}
    assert result["winners"] == ["P3"]
    won = play(TO_TM06 + TM09 + REVEAL_5_13_38, "option match=rounds:1\noption caller_fail_penalty=10\n")
    assert details(won)["totals"] == {"P1": 5, "P2": 13, "P3": 38}


def test_all_must_be_le5_can_leave_no_winner():
    lines = SHORT_ROUND + REVEAL_7_9_8
    result = play(lines, "option all_must_be_le5=true\n")
    assert result["over"] and result["winners"] == []
    assert result["prompt"]["text"] == "P1's call fails\nNobody has 5 or less\nNo winner"
    assert play(TO_TM06 + TM09 + REVEAL_5_13_38, "option all_must_be_le5=true\n")["winners"] == ["P1"]


def test_call_after_own_turn():
    options = "option call_timing=after_own_turn\n"
    opened = play(TM01, options)
    assert "tamalou" not in opened["prompt"]["options"]
    asked = play(TM01 + "choose tamalou\nchoose draw\nchoose play\ntap 5H\n", options)
    assert rejected_codes(asked) == ["E_ILLEGAL"]
    assert asked["prompt"]["id"] == "call" and asked["prompt"]["options"] == ["no", "yes"]
    declined = play(TM01 + "choose draw\nchoose play\ntap 5H\nchoose no\n", options)
    assert details(declined)["current"] == "P2" and details(declined)["caller"] is None
    called = play(TM01 + "choose draw\nchoose play\ntap 5H\nchoose yes\n", options)
    assert details(called)["caller"] == "P1" and details(called)["final_queue"] == ["P2", "P3"]
    last = play(TM01 + "choose draw\nchoose play\ntap 5H\nchoose yes\nchoose draw\nchoose play\ntap 6H\n",
                options)
    assert last["prompt"]["id"] == "turn" and details(last)["current"] == "P3"


def test_lock_caller_only_shows_a_reminder():
    state = state_of(TM01 + "choose tamalou\n", "option lock_caller=true\n")
    assert SPEC.reminder(state).text() == "P1's cards locked"
    assert SPEC.reminder(state_of(TM01 + "choose tamalou\n")) is None
    assert SPEC.reminder(state_of(TM01, "option lock_caller=true\n")) is None


@pytest.mark.parametrize("mode,text", [
    ("mandatory", "Look at 1 opponent\ncard, swap it with\n1 of yours\nSELECT when done"),
    ("optional", "Look at 1 opponent\ncard; you may swap\nit with 1 of yours\nSELECT when done"),
])
def test_black_king_power_wording(mode, text):
    result = play(TM01 + "choose draw\nchoose play\ntap KS\n", f"option black_king_swap={mode}\n")
    assert result["prompt"] == {"id": "power", "text": text, "options": ["P2", "P3"]}


def test_swap_power_names_an_opponent_with_cards_for_the_log():
    lines = EMPTY_P1 + "choose penalty\nchoose P1\nchoose draw\nchoose play\ntap JD\n"
    menu = play(lines)
    assert menu["prompt"]["id"] == "power" and menu["prompt"]["options"] == ["P2", "P3"]
    refused = play(lines + "choose P1\nchoose nobody\nchoose P3\nselect\n")
    assert rejected_codes(refused) == ["E_NOT_ELIGIBLE", "E_NOT_EXPECTED"]
    assert details(refused)["current"] == "P2"


def test_power_with_nothing_to_act_on_has_no_effect():
    lines = EMPTY_P1 + "choose draw\nchoose play\ntap 8D\n"        # look at your own: none left
    assert play(lines)["prompt"]["id"] == "turn" and messages(lines)[-1] == "8 of diamonds:\nno effect"


def test_back_returns_from_sub_prompts_before_commitment():
    base = play(TM01)
    for lines in ("choose take_discard\nback\n", "tap 4H\nback\n", "choose penalty\nback\n"):
        assert details(play(TM01 + lines)) == details(base)
    assert play(TM01 + "choose draw\nback\n")["rejected"][0]["code"] == "E_NOT_EXPECTED"
    returned = play(TM01 + "choose draw\nchoose keep\nback\n")
    assert returned["prompt"]["id"] == "drawn"


def test_discarding_checks_the_discard():
    result = play(TM01 + "choose draw\nchoose play\ntap 7C\n")
    assert rejected_codes(result) == ["E_IN_PLAY"]
    result = play(TM01 + TM02 + "choose draw\nchoose keep\ntap KS\ntap 7C\n")
    assert rejected_codes(result) == ["E_IN_PLAY"]
    assert details(result)["top"] == "7C"       # 7C left the discard with P1's take


def penalties(n: int, who: str = "P1") -> str:
    return f"choose penalty\nchoose {who}\n" * n


def test_empty_pile_reshuffles_the_discard_but_its_top():
    turns = "choose draw\nchoose play\ntap 5H\nchoose draw\nchoose play\ntap 5D\n" \
            "choose draw\nchoose play\ntap 5S\n"           # discard 7C 5H 5D 5S, pile 36
    empty = play(TM01 + turns + penalties(36))
    assert details(empty)["pile"] == 0
    lines = TM01 + turns + penalties(36) + "choose draw\n"
    drawn = play(lines)
    assert (details(drawn)["pile"], details(drawn)["discard"]) == (2, ["5S"])
    assert messages(lines)[-1] == "Pile empty: shuffle\nthe discard but its\ntop into a new pile"


def test_nothing_left_to_draw():
    lines = TM01 + penalties(39)
    stuck = play(lines)
    assert details(stuck)["pile"] == 0 and stuck["prompt"]["options"] == ["take_discard", "tamalou"]
    refused = play(lines + "choose draw\nchoose penalty\n")
    assert rejected_codes(refused) == ["E_ILLEGAL", "E_ILLEGAL"]
    wrong = play(lines + "tap 4H\nchoose P2\n")
    assert details(wrong)["counts"]["P2"] == 4
    assert messages(lines + "tap 4H\nchoose P2\n")[-1] == \
        "P2: wrong! Take\nit back. Pile empty:\nno penalty card"


# ---- pure helpers, invariants, texts ------------------------------------------------

@pytest.mark.parametrize("card,points", [("AS", 1), ("7C", 7), ("10H", 10), ("JD", 10), ("QS", 10),
                                         ("KS", 15), ("KC", 15), ("KH", 0), ("KD", 0)])
def test_points(card, points):
    assert TS.points(card) == points


@pytest.mark.parametrize("scores,caller,le5,winners", [
    ((("A", 5), ("B", 6)), "A", False, ("A",)),
    ((("A", 5), ("B", 5)), "A", False, ("B",)),                      # the caller loses a tie
    ((("A", 6), ("B", 9), ("C", 7)), "A", False, ("C",)),            # AMB-TA13
    ((("A", 9), ("B", 7), ("C", 7)), "A", False, ("B", "C")),        # AMB-TA14
    ((("A", 9), ("B", 7), ("C", 7)), "A", True, ()),                 # AMB-TA18
    ((("A", 0), ("B", 0), ("C", 0)), "B", False, ("A", "C")),        # everyone ties
])
def test_round_winners(scores, caller, le5, winners):
    assert TS.round_winners(scores, caller, le5) == winners


@pytest.mark.parametrize("text", ["rounds:0", "rounds", "threshold:x", "double", "rounds:-2"])
def test_bad_match_option_is_a_config_error(text):
    with pytest.raises(engine.ConfigError, match="option match"):
        make_config(SPEC, ["A", "B"], options={"match": text})


def test_cards_and_jokers_are_known_ids():
    assert len(SPEC.components) == 52 and SPEC.card_ids()[:13][-1] == "KS"
    assert SPEC.extra_cards == ("joker#1", "joker#2")
    state = state_of(TM01)
    assert step(SPEC, state, Tap("ks#1")).state.phase == "snap_who"


@pytest.mark.parametrize("options", [{}, {"match": "rounds:2", "call_timing": "after_own_turn"},
                                     {"match": "threshold:60", "snap_match": "points",
                                      "caller_fail_penalty": "5", "lock_caller": "true"}])
def test_random_play_conserves_cards_and_totals(options):
    """52 cards in pile, discard, squares and hand; totals = sum of rounds (checked every step)."""
    rng = random.Random(7)
    session = Session(SPEC, make_config(SPEC, ["A", "B", "C", "D"], options=options))
    while SPEC.result(session.state) is None:
        session.play(rng.choice(legal_events(SPEC, session.state)))
        state = session.state
        held = 1 if state.phase in ("drawn", "keep", "played") else 0
        assert state.pile + len(state.discard) + sum(n for _, n in state.counts) + held == 52
        assert SPEC.invariants(state) == []
    totals = dict(session.state.totals)
    assert totals == {s: sum(dict(h)[s] for h in session.state.history) for s in session.state.seats}
    assert len(session.state.history) == session.state.round


def test_broken_state_is_reported():
    state = state_of(TO_TM06)
    from dataclasses import replace
    assert SPEC.invariants(replace(state, pile=state.pile + 1))
    assert SPEC.invariants(replace(state, totals=(("P1", 3), ("P2", 0), ("P3", 0))))


def test_every_text_fits_the_screen():
    args = dict(name="Ann", caller="Bob", card="10H", top="10H", n=18, m=14, k=13, sum=107, i=2,
                round=2, names="Ann, Bob", points=38, rank="10", suit="H")
    for key in catalog("en"):
        if key.startswith("tm."):
            for line in msg(key, **args).text().split("\n"):
                assert len(line) <= 21, f"{key}: {line!r}"


def test_rejections_leave_the_state_alone():
    state = state_of(TO_TM06)
    for event in (Tap("9H"), Tap("9D"), Tap("joker#2")):
        outcome_ = step(SPEC, state, event)
        assert isinstance(outcome_, Rejected)
    assert dumps(state) == dumps(state_of(TO_TM06))
