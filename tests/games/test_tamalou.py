"""Tamalou: one test per scenario of the rules, driven as event scripts, plus the options.

The TM scenarios build on each other: TM-01's deal and opening discard, then
TM-02..TM-06's turns and snaps, then TM-09's call and TM-10's reveal.
"""
from __future__ import annotations

import pytest

import engine
from engine.core.codec import dumps
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
    assert messages(TO_TM06)[-1] == "P3: wrong! Take\nit back + draw 1\npenalty card"


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
    assert messages(LAST_SNAP_ROUND + "tap 9C\nchoose P2\n")[-1] == \
        "P2: wrong! Take\nit back + draw 1\npenalty card"
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
