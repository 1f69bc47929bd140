"""Tamalou: one test per scenario of the rules, driven as event scripts, plus the options.

The TM scenarios build on each other: TM-01's deal and opening discard, then
TM-02..TM-06's turns and snaps, then TM-09's call and TM-10's reveal.
"""
from __future__ import annotations

import random

import pytest

import engine
from engine import Rejected, Session, Tap, legal_events, make_config, step
from engine.core.codec import dumps
from engine.core.text import catalog, msg
from engine.games.tamalou import scoring as TS
from tests.support import codes, outcome, rejected_codes, run, scores

SPEC = engine.get("tamalou")
HEAD = "game tamalou\nplayers P1 P2 P3\n"

TM01 = "tap 7C\n"
TM02 = "choose take_discard\ntap KS\n"
TM03 = "choose draw\nchoose play\ntap 9H\nselect\n"
TM04 = "choose draw\nchoose keep\ntap 9S\n"
TM05 = "tap 9D\nchoose P2\n"
TM06 = "tap 4H\nchoose P3\n"
TO_TM06 = TM01 + TM02 + TM03 + TM04 + TM05 + TM06      # P1 to play; counts 4/3/5; pile 36
LAST_TURNS = "choose tamalou\nchoose draw\nchoose play\ntap 5H\nchoose take_discard\ntap 5C\n"
TM09 = LAST_TURNS + "select\n"            # the last snaps: nobody snaps, SELECT starts the reveal
REVEAL_5_13_38 = ("tap AH\ntap 2C\ntap KD\ntap 2D\nselect\n" "tap 3S\ntap 4D\ntap 6C\nselect\n"
                  "tap 10H\ntap QS\ntap KC\ntap AS\ntap 2S\nselect\n")


def play(lines: str, options: str = "", players: str = "P1 P2 P3") -> dict:
    return outcome(f"game tamalou\nplayers {players}\n{options}{lines}")


def state_of(lines: str, options: str = ""):
    return run(HEAD + options + lines).session.state


def details(result: dict) -> dict:
    return result["details"]


def messages(lines: str, options: str = "") -> list[str]:
    return [m for r in run(HEAD + options + lines).records for m in r.messages]


# ---- §4.8 scenarios -------------------------------------------------------------

def test_tm01_setup_opening_discard_has_no_power_and_jokers_are_refused():
    result = play(TM01)
    assert details(result)["counts"] == {"P1": 4, "P2": 4, "P3": 4}
    assert (details(result)["pile"], details(result)["top"]) == (39, "7C")
    assert result["prompt"]["id"] == "turn" and details(result)["current"] == "P1"
    assert all(p["score"] is None for p in result["players"])
    with_joker = run(HEAD + "tap joker#1\n" + TM01 + "tap joker#2\n")
    assert [(r.code, r.messages[0]) for r in with_joker.rejected] == [
        ("E_NOT_EXPECTED", "Jokers not used")] * 2
    assert dumps(with_joker.session.state) == dumps(state_of(TM01))


def test_tm02_take_discard_refuses_the_taken_card_and_discards_the_replaced_one():
    result = play(TM01 + "choose take_discard\ntap 7C\ntap KS\n")
    assert codes(result) == [(5, "E_SAME_CARD")]
    assert details(result)["discard"] == ["KS"]
    assert details(result)["counts"]["P1"] == 4
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P2")


def test_tm03_draw_and_play_a_power_card():
    powered = play(TM01 + TM02 + "choose draw\nchoose play\ntap 9H\n")
    assert powered["prompt"]["id"] == "power"
    assert powered["prompt"]["text"] == "9 of hearts:\nlook at 1 opponent\ncard, then SELECT"
    assert powered["prompt"]["options"] == []
    result = play(TM01 + TM02 + TM03)
    assert (details(result)["pile"], details(result)["top"]) == (38, "9H")
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P3")


def test_tm04_draw_and_keep_has_no_power():
    assert messages(TM01 + TM02 + TM03 + TM04)[-1] == "On the discard:\n9 of spades"
    result = play(TM01 + TM02 + TM03 + TM04)
    assert (details(result)["pile"], details(result)["top"]) == (37, "9S")
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P1")


def test_tm05_good_snap_asks_who_and_keeps_the_turn():
    asking = play(TM01 + TM02 + TM03 + TM04 + "tap 9D\n")
    assert asking["prompt"]["id"] == "snap"
    assert asking["prompt"]["text"] == "Who discarded\n9 of diamonds?"
    assert asking["prompt"]["options"] == ["P1", "P2", "P3"]
    result = play(TM01 + TM02 + TM03 + TM04 + TM05)
    assert details(result)["counts"]["P2"] == 3 and details(result)["top"] == "9D"
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P1")


def test_tm06_wrong_snap_takes_the_card_back_plus_a_penalty():
    result = play(TO_TM06)
    assert details(result)["counts"] == {"P1": 4, "P2": 3, "P3": 5}
    assert (details(result)["pile"], details(result)["top"]) == (36, "9D")
    assert messages(TO_TM06)[-1] == "Wrong! Take it back\n+ draw 1 penalty"


@pytest.mark.parametrize("mode,count", [("rank", 5), ("points", 3)])
def test_tm07_jack_on_a_ten_depends_on_snap_match(mode, count):
    result = play("tap 10D\ntap JC\nchoose P1\n", f"option snap_match={mode}\n")
    assert details(result)["counts"]["P1"] == count
    assert details(result)["top"] == ("10D" if mode == "rank" else "JC")


@pytest.mark.parametrize("mode,count", [("rank", 3), ("points", 5)])
def test_tm08_red_king_on_a_black_king(mode, count):
    result = play("tap KS\ntap KH\nchoose P2\n", f"option snap_match={mode}\n")
    assert details(result)["counts"]["P2"] == count


def test_tm09_call_gives_each_opponent_one_last_turn():
    called = play(TO_TM06 + "choose tamalou\n")
    assert details(called)["caller"] == "P1" and details(called)["final_queue"] == ["P2", "P3"]
    assert details(called)["phase"] == "last_round" and details(called)["current"] == "P2"
    assert "tamalou" not in called["prompt"]["options"]
    assert called["prompt"]["text"].startswith("P2: last turn")
    after_p2 = play(TO_TM06 + "choose tamalou\nchoose draw\nchoose play\ntap 5H\n")
    assert details(after_p2)["final_queue"] == ["P3"] and details(after_p2)["current"] == "P3"
    last_snaps = play(TO_TM06 + LAST_TURNS)
    assert (last_snaps["prompt"]["id"], details(last_snaps)["final_queue"]) == ("last_snaps", [])
    assert last_snaps["prompt"]["text"] == "Last snaps? Tap,\nthen SELECT\nTop card:\n5 of clubs"
    result = play(TO_TM06 + TM09)
    assert (result["prompt"]["id"], details(result)["phase"]) == ("reveal", "reveal")
    assert details(result)["current"] == "P1"
    again = play(TO_TM06 + "choose tamalou\nchoose tamalou\n")
    assert codes(again) == [(18, "E_ILLEGAL")]


def test_tm10_caller_wins_with_five_strictly_lowest():
    result = play(TO_TM06 + TM09 + REVEAL_5_13_38)
    assert scores(result) == {"P1": 5, "P2": 13, "P3": 38}
    assert result["over"] and result["winners"] == ["P1"]
    assert result["prompt"]["text"] == "Tamalou! P1 wins\nScore: 5"
    assert result["rejected"] == []


# A good snap by P3 (7D on 7C) leaves P3 three cards; P1 calls; P2 and P3 play a card each.
SHORT_ROUND = "tap 7C\ntap 7D\nchoose P3\nchoose tamalou\nchoose draw\nchoose play\ntap 5H\n" \
              "choose draw\nchoose play\ntap 6H\nselect\n"


def test_tm11_caller_loses_a_tie():
    reveal = "tap KH\ntap KD\ntap 2S\ntap 2H\nselect\ntap AS\ntap AH\ntap AD\ntap AC\nselect\n" \
             "tap 2D\ntap 3S\ntap 4S\nselect\n"
    result = play(SHORT_ROUND + reveal)
    assert scores(result) == {"P1": 4, "P2": 4, "P3": 9}
    assert result["winners"] == ["P2"]
    assert result["prompt"]["text"] == "P1's call fails\nWinner: P2\nScore: 4"


REVEAL_7_9_8 = "tap AS\ntap 2S\ntap 3S\ntap AH\nselect\ntap 2H\ntap 3H\ntap 4H\ntap KH\nselect\n" \
               "tap AD\ntap 4D\ntap 3D\nselect\n"


def test_tm12_caller_over_five_is_left_out_although_lowest():
    result = play(SHORT_ROUND + REVEAL_7_9_8)
    assert scores(result) == {"P1": 7, "P2": 9, "P3": 8}
    assert result["winners"] == ["P3"]


# P1 snaps three 7s on the opening 7C and, after P2's 9H, a fourth card: P1's square is empty.
EMPTY_P1 = "tap 7C\ntap 7D\nchoose P1\ntap 7H\nchoose P1\ntap 7S\nchoose P1\n" \
           "choose draw\nchoose keep\ntap 5S\n" \
           "choose draw\nchoose play\ntap 9H\nselect\ntap 9C\nchoose P1\n" \
           "choose draw\nchoose play\ntap 6D\n"


def test_tm13_caller_with_no_cards_scores_zero_and_loses_a_tie():
    empty = play(EMPTY_P1)
    assert details(empty)["counts"]["P1"] == 0 and details(empty)["current"] == "P1"
    assert empty["prompt"]["options"] == ["draw", "tamalou", "penalty"]      # AMB-TA15
    last_turns = ("choose tamalou\nchoose draw\nchoose play\ntap 5H\nchoose draw\nchoose play\ntap 6H\n"
                  "select\n")                                   # no last snap
    tie = play(EMPTY_P1 + last_turns + "select\ntap KH\ntap KD\nselect\nselect\n"
               "tap 2C\ntap 3C\ntap 4C\ntap 8C\nselect\n")
    assert scores(tie) == {"P1": 0, "P2": 0, "P3": 17}
    assert tie["winners"] == ["P2"]
    win = play(EMPTY_P1 + last_turns + "select\ntap AH\ntap KD\ntap 2D\ntap 3D\nselect\n"
               "tap 2C\ntap 3C\ntap 4C\ntap 8C\nselect\n")
    assert win["winners"] == ["P1"] and scores(win)["P1"] == 0


def test_tm13_empty_square_can_only_draw_and_play():
    drawn = play(EMPTY_P1 + "choose draw\n")
    assert drawn["prompt"]["options"] == ["play"]
    refused = play(EMPTY_P1 + "choose take_discard\nchoose draw\nchoose keep\n")
    assert rejected_codes(refused) == ["E_NOT_ELIGIBLE", "E_NOT_ELIGIBLE"]


# §4.4 LAST SNAPS: after P3's last turn the top is 6H; a snap is judged as during play.
LAST_SNAP_ROUND = SHORT_ROUND.removesuffix("select\n")


def test_a_last_snap_that_matches_counts_at_the_reveal():
    asked = play(LAST_SNAP_ROUND + "tap 6S\n")
    assert (asked["prompt"]["id"], asked["prompt"]["options"]) == ("snap", ["P1", "P2", "P3"])
    snapped = play(LAST_SNAP_ROUND + "tap 6S\nchoose P1\n")
    assert snapped["prompt"]["id"] == "last_snaps" and details(snapped)["top"] == "6S"
    assert details(snapped)["counts"] == {"P1": 3, "P2": 4, "P3": 3}
    revealing = play(LAST_SNAP_ROUND + "tap 6S\nchoose P1\nselect\n")
    assert (revealing["prompt"]["id"], details(revealing)["current"]) == ("reveal", "P1")
    # P1 reveals the 3 cards left: no count warning, and the snapped 6S scores nothing.
    result = play(LAST_SNAP_ROUND + "tap 6S\nchoose P1\nselect\n"
                  "tap KH\ntap KD\ntap 2S\nselect\ntap AS\ntap AH\ntap AD\ntap AC\nselect\n"
                  "tap 2D\ntap 3S\ntap 4S\nselect\n")
    assert scores(result) == {"P1": 2, "P2": 4, "P3": 9} and result["winners"] == ["P1"]
    assert result["rejected"] == []


def test_a_last_snap_that_does_not_match_costs_a_card():
    before = play(LAST_SNAP_ROUND)
    wrong = play(LAST_SNAP_ROUND + "tap 9C\nchoose P2\n")
    assert messages(LAST_SNAP_ROUND + "tap 9C\nchoose P2\n")[-1] == "Wrong! Take it back\n+ draw 1 penalty"
    assert wrong["prompt"]["id"] == "last_snaps" and details(wrong)["top"] == "6H"
    assert details(wrong)["counts"]["P2"] == details(before)["counts"]["P2"] + 1
    assert details(wrong)["pile"] == details(before)["pile"] - 1
    reveal = play(LAST_SNAP_ROUND + "tap 9C\nchoose P2\nselect\ntap KH\ntap KD\ntap 2S\ntap 2H\nselect\n"
                  "tap AS\ntap AH\ntap AD\ntap AC\nselect\n")
    assert reveal["prompt"]["id"] == "mismatch"                 # P2 holds 5 cards now, not 4


def test_last_snaps_refuse_the_top_and_buried_cards_and_back_returns_to_them():
    before = play(LAST_SNAP_ROUND)
    refused = play(LAST_SNAP_ROUND + "tap 6H\ntap 7C\n")
    assert rejected_codes(refused) == ["E_IN_PLAY", "E_OUT_OF_PLAY"]
    assert details(refused) == details(before)
    backed = play(LAST_SNAP_ROUND + "tap 6S\nback\n")
    assert backed["prompt"]["id"] == "last_snaps" and details(backed) == details(before)


def test_last_snap_s_zero_leaves_the_step_out():
    result = play(LAST_SNAP_ROUND, "option last_snap_s=0\n")
    assert (result["prompt"]["id"], details(result)["current"]) == ("reveal", "P1")


def test_tm14_penalty_from_the_more_menu():
    before = play(TM01)
    asking = play(TM01 + "choose penalty\n")
    assert asking["prompt"]["id"] == "penalty" and asking["prompt"]["options"] == ["P1", "P2", "P3"]
    result = play(TM01 + "choose penalty\nchoose P2\n")
    assert details(result)["counts"]["P2"] == details(before)["counts"]["P2"] + 1
    assert details(result)["pile"] == details(before)["pile"] - 1
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P1")
    backed = play(TM01 + "choose penalty\nback\n")
    assert details(backed) == details(before) and backed["prompt"]["id"] == "turn"


def test_tm15_invalid_snaps():
    result = play(TO_TM06 + "tap 9H\ntap 9D\n")
    assert rejected_codes(result) == ["E_OUT_OF_PLAY", "E_IN_PLAY"]
    assert details(result) == details(play(TO_TM06))


def test_tm15_reveal_count_check_and_repeated_card():
    at_p2 = TO_TM06 + TM09 + "tap AH\ntap 2C\ntap KD\ntap 2D\nselect\n"
    short = play(at_p2 + "tap 3S\ntap 4D\nselect\n")
    assert short["prompt"]["id"] == "mismatch"
    assert short["prompt"]["text"] == "Expected 3, got 2\nSELECT=accept\nBACK=keep tapping"
    assert scores(short)["P2"] is None and details(short)["current"] == "P2"
    kept = play(at_p2 + "tap 3S\ntap 4D\nselect\nback\ntap 6C\nselect\ntap 4D\ntap 9H\n")
    assert rejected_codes(kept) == ["E_SAME_CARD", "E_OUT_OF_PLAY"]
    assert scores(kept)["P2"] == 13 and details(kept)["current"] == "P3"
    accepted = play(at_p2 + "tap 3S\ntap 4D\nselect\nselect\n")
    assert scores(accepted)["P2"] == 7 and details(accepted)["current"] == "P3"


def test_tm15_player_without_cards_is_not_asked_who_snapped():
    result = play(EMPTY_P1 + "tap 6C\n")
    assert result["prompt"]["id"] == "snap" and result["prompt"]["options"] == ["P2", "P3"]
    refused = play(EMPTY_P1 + "tap 6C\nchoose P1\n")
    assert rejected_codes(refused) == ["E_NOT_ELIGIBLE"]


def test_tm16_red_king_and_low_cards_have_no_power():
    lines = TM01 + "choose draw\nchoose keep\ntap 5S\nchoose draw\nchoose play\ntap KD\n"
    result = play(lines)
    assert details(result)["top"] == "KD"
    assert (result["prompt"]["id"], details(result)["current"]) == ("turn", "P3")
    assert messages(lines)[-1] == "King of diamonds:\nno effect"


def test_tm17_match_mode_adds_rounds_and_moves_the_first_player():
    options = "option match=rounds:2\n"
    round1 = TO_TM06 + TM09 + REVEAL_5_13_38
    between = play(round1, options)
    assert not between["over"] and between["prompt"]["id"] == "deal"
    assert details(between)["totals"] == {"P1": 5, "P2": 13, "P3": 38}
    assert details(between)["phase"] == "round_over"
    dealt = play(round1 + "select\n", options)
    assert dealt["prompt"]["id"] == "opening" and details(dealt)["round"] == 2
    assert details(dealt)["counts"] == {"P1": 4, "P2": 4, "P3": 4} and details(dealt)["pile"] == 40
    assert all(p["score"] is None for p in dealt["players"])
    round2 = ("tap 7C\ntap 7D\nchoose P3\nchoose tamalou\nchoose draw\nchoose play\ntap 5H\n"
              "choose draw\nchoose play\ntap 6H\nselect\n"
              "tap 2S\ntap 2H\ntap 2D\ntap 3S\nselect\ntap AS\ntap AH\ntap AD\ntap KH\nselect\n"
              "tap AC\ntap KD\ntap 3H\nselect\n")
    opened = play(round1 + "select\ntap 7C\n", options)
    assert details(opened)["current"] == "P2"
    result = play(round1 + "select\n" + round2, options)
    assert scores(result) == {"P1": 9, "P2": 3, "P3": 4}
    assert details(result)["totals"] == {"P1": 14, "P2": 16, "P3": 42}
    assert result["over"] and result["winners"] == ["P1"]
    assert result["prompt"]["text"] == "Match over\nWinner: P1\nTotal: 14"


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
    assert messages(lines + "tap 4H\nchoose P2\n")[-1] == "Wrong! Take it back\nPile empty: no\npenalty card"


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
    args = dict(name="Ann", caller="Bob", card="10H", top="10H", n=18, m=14, k=13, sum=107,
                round=2, names="Ann, Bob", points=38, rank="10", suit="H")
    for key, template in catalog("en").items():
        if key.startswith("tm."):
            for line in msg(key, **args).text().split("\n"):
                assert len(line) <= 21, f"{key}: {line!r}"


def test_rejections_leave_the_state_alone():
    state = state_of(TO_TM06)
    for event in (Tap("9H"), Tap("9D"), Tap("joker#2")):
        outcome_ = step(SPEC, state, event)
        assert isinstance(outcome_, Rejected)
    assert dumps(state) == dumps(state_of(TO_TM06))
