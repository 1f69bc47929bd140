"""L'Auberge des pirates: one test per scenario of the rules, driven as event scripts.

Card `5a` of the scenarios is `5#1`, `5b` is `5#2`, and so on.
"""
from __future__ import annotations

import pytest

import engine
from engine import ConfigError, make_config
from engine.core.codec import dumps
from engine.games.auberge import auberge
from tests.support import codes, outcome, rejected_codes, run

SPEC = engine.get("auberge")
HEAD = "game auberge\nplayers P1 P2 P3 P4\n"

# The story of LA-01 to LA-09, one step at a time.
LA01 = "tap 5#1\ntap 3#1\ntap 3#2\ntap 8#1\nchoose P3\n"
LA03 = LA01 + "choose attack\nchoose P4\ntap 4#1\n"
LA04 = LA03 + "choose attack\nchoose P1\ntap 5#2\n"
LA05 = LA04 + "back\nchoose challenge\nchoose P2\ntap 7#1\n"
LA06 = LA05 + "choose challenge\nchoose P4\ntap 8#2\n"
LA09 = LA06 + "choose accuse\nchoose P4\ntap 6#1\ntap 6#1\ntap 3#2\nselect\n"
LA07 = LA09 + "tap 6#2\nselect\n"
LA08 = LA07 + "choose accuse\nchoose P3\ntap 9#1\nselect\n"


def play(lines: str, head: str = HEAD) -> dict:
    return outcome(head + lines)


def state_of(lines: str, head: str = HEAD):
    return run(head + lines).session.state


def fronts(result: dict) -> dict:
    return result["details"]["fronts"]


def outs(result: dict) -> list[str]:
    return [p["name"] for p in result["players"] if p["out"]]


def turn_of(result: dict) -> str:
    assert result["prompt"]["id"] == "turn"
    return result["details"]["current"]


def test_la01_setup_opening_tie_asks_for_the_oldest():
    tied = play(LA01.replace("choose P3\n", ""))
    assert tied["prompt"]["id"] == "oldest"
    assert tied["prompt"]["options"] == ["P2", "P3"]
    assert tied["prompt"]["text"] == "Tie for lowest!\nOldest of:\nP2, P3?"
    result = play(LA01)
    assert turn_of(result) == "P3"
    assert result["details"]["pile"] == 43
    assert result["details"]["hands"] == {"P1": 2, "P2": 2, "P3": 2, "P4": 2}
    assert fronts(result) == {"P1": ["5#1"], "P2": ["3#1"], "P3": ["3#2"], "P4": ["8#1"]}
    assert [p["score"] for p in result["players"]] == [None] * 4


def test_la01_oldest_must_be_one_of_the_tied():
    result = play(LA01.replace("choose P3\n", "choose P1\nchoose P2\n"))
    assert rejected_codes(result) == ["E_NOT_ELIGIBLE"]
    assert turn_of(result) == "P2"


def test_la01_unique_lowest_starts_without_a_prompt():
    result = play("tap 5#1\ntap 2#1\ntap 3#2\ntap 8#1\n")
    assert turn_of(result) == "P2"


def test_la02_opening_card_already_on_the_table():
    result = play("tap 5#1\ntap 5#1\n")
    assert codes(result) == [(4, "E_IN_PLAY")]
    assert result["prompt"] == {"id": "opening", "text": "All: 1 card face up\nP2: tap your card",
                                "options": []}
    assert result["details"]["hands"]["P2"] == 3


def test_la03_legal_attack_passes_the_turn_to_the_target():
    result = play(LA03)
    assert fronts(result)["P4"] == ["8#1", "4#1"]
    assert result["details"]["hands"]["P3"] == 1
    assert turn_of(result) == "P4"


def test_la04_illegal_attack_is_refused_and_back_returns_to_turn():
    result = play(LA04)
    assert result["rejected"] == [{"line": 13, "code": "E_ILLEGAL",
                                   "message": "Pairs with P1's 5!\nTake it back"}]
    assert result["details"]["hands"]["P4"] == 2
    assert fronts(result)["P1"] == ["5#1"]
    assert result["prompt"]["id"] == "attack_card"
    assert turn_of(play(LA04 + "back\n")) == "P4"


def test_la05_successful_challenge():
    result = play(LA05)
    assert fronts(result)["P2"] == ["3#1", "7#1"]
    assert result["details"]["pile"] == 42
    assert turn_of(result) == "P2"


def test_la06_failed_challenge_discards_only_the_drawn_card():
    result = play(LA06)
    assert outs(result) == ["P2"]
    assert fronts(result)["P4"] == ["8#1", "4#1"]
    assert result["details"]["pile"] == 41
    assert result["details"]["discard"] == 1 + 2 + 2
    assert result["details"]["discard_seen"] == ["3#1", "7#1", "8#2"]
    assert turn_of(result) == "P3"


def test_la07_successful_accusation_skips_accused_on_the_left():
    result = play(LA07)
    assert outs(result) == ["P2", "P4"]
    assert turn_of(result) == "P1"
    assert "Pair found!\nP4 is out" in run(HEAD + LA07).records[-1].messages


def test_la07_accused_hand_is_forgotten_after_the_verdict():
    during = state_of(LA07.removesuffix("select\n"))
    assert during.accused_taps == ("6#1", "6#2")
    after = state_of(LA07)
    assert after.accused_taps == ()
    assert "6#1" not in dumps(after) and "6#2" not in dumps(after)


def test_la08_failed_accusation_ends_the_game():
    result = play(LA08)
    assert result["over"] and result["winners"] == ["P3"]
    assert outs(result) == ["P1", "P2", "P4"]
    assert result["prompt"] == {"id": "over", "text": "P3 wins!", "options": []}
    assert "9#1" not in dumps(state_of(LA08))


def test_la09_accusation_tap_errors():
    result = play(LA09)
    assert [(r["code"], r["message"]) for r in result["rejected"]] == [
        ("E_ILLEGAL", "Pairs with P1's 5!\nTake it back"),
        ("E_SAME_CARD", "Same card twice"),
        ("E_IN_PLAY", "Card already on table"),
        ("E_ILLEGAL", "Tap 1 more card"),
    ]
    state = state_of(LA09)
    assert state.accused_taps == ("6#1",)
    assert result["prompt"]["text"] == "P4: show\nP3 your hand,\ntap your cards 1/2\nthen SELECT"
    assert result["details"]["accused_tapped"] == 1


def test_la09_taps_beyond_the_hand_and_back_forget_the_taps():
    full = LA09 + "tap 6#2\ntap 9#1\n"
    assert rejected_codes(play(full))[-1] == "E_ILLEGAL"
    state = state_of(full + "back\n")
    assert (state.phase, state.current, state.accused_taps) == ("turn", "P3", ())


def test_la09_a_discarded_card_cannot_be_in_a_hand():
    assert rejected_codes(play(LA06 + "choose accuse\nchoose P4\ntap 8#2\n"))[-1] == "E_OUT_OF_PLAY"


LA10 = ("tap 2#1\ntap 5#1\ntap 6#1\n"                       # P1 starts
        "choose draw\nchoose attack\nchoose P3\ntap 7#1\n"   # P1 draws; P2 attacks P3
        "choose draw\nchoose draw\nchoose attack\nchoose P3\ntap 8#1\n"
        "choose draw\n")                                    # P2 has no hand; P1's turn


def test_la10_accusing_an_empty_hand():
    head = "game auberge\nplayers P1 P2 P3\n"
    before = play(LA10, head)
    assert before["details"]["hands"]["P2"] == 0 and turn_of(before) == "P1"
    replay = run(head + LA10 + "choose accuse\nchoose P2\n")
    assert replay.records[-1].messages[:2] == ["P2 has no hand:\nno pair", "No pair!\nP1 is out"]
    result = play(LA10 + "choose accuse\nchoose P2\n", head)
    assert outs(result) == ["P1"]
    assert turn_of(result) == "P2"
    assert result["details"]["discard"] == 1 + 4


def test_la11_draw_shows_nothing_about_pairs():
    replay = run(HEAD + LA01 + "choose draw\n")
    assert replay.records[-1].messages == ["P3: draw 1,\nkeep it hidden\nP4 plays next"]
    result = play(LA01 + "choose draw\n")
    assert result["details"]["hands"]["P3"] == 3
    assert result["details"]["pile"] == 42
    assert turn_of(result) == "P4"


def empty_pile_script() -> str:
    """Seven pirates drain the pile so that it is empty when P2, with no hand, is to play."""
    lines = [f"tap {v}#1" for v in (10, 9, 8, 7, 6, 5, 4)]          # P7 (4) starts
    draws = lambda *seats: ["choose draw"] * len(seats)             # noqa: E731
    p2_moves = iter([("attack", "1"), ("attack", "2#1"), ("challenge", "3#2"),
                     ("challenge", "5#2"), ("challenge", "6#2")])
    lines += draws("P7", "P1")
    for _ in range(5):
        action, card = next(p2_moves)
        lines += [f"choose {action}", "choose P3", f"tap {card}"]
        if len(lines) < 40:
            lines += draws("P3", "P4", "P5", "P6", "P7", "P1")
    lines += draws("P3", "P4", "P5", "P6") + ["choose challenge", "choose P2", "tap 7#2"]
    return "\n".join(lines) + "\n"


def test_la12_empty_pile_leaves_only_accuse():
    head = "game auberge\nplayers P1 P2 P3 P4 P5 P6 P7\n"
    result = play(empty_pile_script(), head)
    assert result["rejected"] == []
    assert result["details"]["pile"] == 0 and result["details"]["hands"]["P2"] == 0
    assert turn_of(result) == "P2"
    assert result["prompt"]["options"] == ["accuse"]
    refused = play(empty_pile_script() + "choose draw\nchoose challenge\n", head)
    assert [r["message"] for r in refused["rejected"]] == ["The pile is empty"] * 2


def test_la12_option_reshuffle_discards():
    head = "game auberge\nplayers P1 P2 P3 P4 P5 P6 P7\noption empty_pile=reshuffle_discards\n"
    script = empty_pile_script() + "choose accuse\nchoose P3\n"      # P2 accuses P3: 7 cards
    script += "".join(f"tap {c}\n" for c in ("4#2", "4#3", "7#3", "7#4", "9#2", "9#3", "10#2"))
    script += "select\n"                                          # a pair: P3 is out
    result = play(script, head)
    assert turn_of(result) == "P4" and result["details"]["discard"] == 6 + 7
    assert result["prompt"]["options"] == ["attack", "challenge", "accuse", "draw"]
    shuffled = play(script + "choose draw\n", head)
    assert shuffled["prompt"]["id"] == "reshuffle"
    assert turn_of(play(script + "choose draw\nback\n", head)) == "P4"
    drawn = play(script + "choose draw\nselect\n", head)
    assert drawn["details"]["pile"] == 12 and drawn["details"]["discard"] == 0
    assert drawn["details"]["discard_seen"] == [] and turn_of(drawn) == "P5"
    assert drawn["details"]["hands"]["P4"] == 8


LA13_ATTACK = "tap 5#1\ntap 2#1\ntap 9#1\nchoose attack\nchoose P1\ntap 4#1\n"
LA13_ACCUSE = ("tap 5#1\ntap 2#1\ntap 9#1\n"                         # P2 starts
               "choose attack\nchoose P3\ntap 4#1\n"                 # P2 keeps one card: the 1
               "choose challenge\nchoose P2\ntap 7#3\n"              # P2's row: 2a, 7c
               "choose challenge\nchoose P3\ntap 6#1\n"
               "choose accuse\nchoose P2\ntap 1\nselect\n")          # P3 accuses P2


def test_la13_the_1_attacks_legally_and_never_pairs():
    head = "game auberge\nplayers P1 P2 P3\n"
    attacked = play(LA13_ATTACK + "choose attack\nchoose P2\ntap 1\n", head)
    assert attacked["rejected"] == []
    assert fronts(attacked)["P2"] == ["2#1", "1"]
    assert turn_of(attacked) == "P2"
    accused = play(LA13_ACCUSE, head)
    assert accused["rejected"] == []
    assert outs(accused) == ["P3"] and turn_of(accused) == "P2"
    assert fronts(accused) == {"P1": ["5#1"], "P2": ["2#1", "7#3"], "P3": []}


def test_la14_buttons_mode_verdict():
    head = HEAD + "option accuse_verdict=buttons\n"
    asking = play(LA01 + "choose accuse\nchoose P1\n", head)
    assert asking["prompt"]["id"] == "verdict" and asking["prompt"]["options"] == ["pair", "no_pair"]
    result = play(LA01 + "choose accuse\nchoose P1\nchoose no_pair\n", head)
    assert outs(result) == ["P3"] and turn_of(result) == "P1"
    paired = play(LA01 + "choose accuse\nchoose P4\nchoose pair\n", head)
    assert outs(paired) == ["P4"] and turn_of(paired) == "P1"


def test_la15_foreign_card_in_challenge():
    result = play(LA01 + "choose challenge\nchoose P4\ntap clam#1\n")
    assert rejected_codes(result) == ["E_WRONG_GAME"]
    assert result["rejected"][0]["message"] == "That's a Palourde card"
    assert result["details"]["pile"] == 43 and result["prompt"]["id"] == "challenge_card"


def test_la16_targets_only_players_still_in():
    result = play(LA06 + "tap 9#1\n")
    assert result["rejected"][-1] == {"line": 21, "code": "E_NOT_EXPECTED",
                                      "message": "P3's turn:\nchoose action"}
    assert dumps(state_of(LA06 + "tap 9#1\n")) == dumps(state_of(LA06))
    targets = play(LA06 + "choose accuse\n")
    assert targets["prompt"]["options"] == ["P1", "P4"]
    refused = play(LA06 + "choose accuse\nchoose P2\nchoose P3\nchoose nobody\n")
    assert rejected_codes(refused)[-3:] == ["E_NOT_ELIGIBLE", "E_NOT_ELIGIBLE", "E_NOT_EXPECTED"]


# ---- options and invariants ----------------------------------------------------

def test_option_illegal_attack_eliminates_the_attacker():
    head = HEAD + "option illegal_attack=eliminate\n"
    result = play(LA03 + "choose attack\nchoose P1\ntap 5#2\n", head)
    assert outs(result) == ["P4"]
    assert result["details"]["discard"] == 1 + 2 + 1           # the 5, the row, the last hand card
    assert "5#2" in result["details"]["discard_seen"]
    assert turn_of(result) == "P1"


def test_option_max_players():
    eight = ["A", "B", "C", "D", "E", "F", "G", "H"]
    with pytest.raises(ConfigError):
        make_config(SPEC, eight)
    config = make_config(SPEC, eight, options={"max_players": "8"})
    assert SPEC.initial(config).pile == 55 - 24
    with pytest.raises(ConfigError):
        make_config(SPEC, eight, options={"max_players": "19"})


def test_attack_is_hidden_with_an_empty_hand():
    result = play(LA10, "game auberge\nplayers P1 P2 P3\n")
    assert result["details"]["hands"]["P2"] == 0
    state = state_of(LA10 + "choose accuse\nchoose P3\ntap 9#1\ntap 9#2\ntap 9#3\ntap 9#4\nselect\n",
                     "game auberge\nplayers P1 P2 P3\n")
    assert state.current == "P2" and auberge.legal_actions(state) == ("challenge", "accuse", "draw")


def test_invariants_catch_a_card_in_two_zones_and_a_kept_hand():
    import dataclasses
    state = state_of(LA05)
    assert auberge.invariants(state) == []
    doubled = dataclasses.replace(state, out_uids=frozenset({"5#1"}), discard=1, pile=state.pile - 1)
    assert auberge.invariants(doubled)
    lost = dataclasses.replace(state, pile=state.pile - 1)
    assert auberge.invariants(lost)
    kept = dataclasses.replace(state, accused_taps=("6#1",))
    assert auberge.invariants(kept)


def test_cards_are_conserved_through_the_story():
    replay = run(HEAD + LA08)
    state = replay.session.state
    seen = sum(len(row) for _, row in state.fronts) + len(state.out_uids)
    hidden = state.pile + sum(n for _, n in state.hands) + state.discard - len(state.out_uids)
    assert seen + hidden == 55


def test_texts_fit_the_screen():
    from engine.core.text import forms
    from engine.games.auberge.texts_en import TEXT
    args = dict(name="Ann", target="Bob", names="Ann, Bob", n=10, k=10, pile=49, v=10, next="Bob")
    for key, text in TEXT.items():
        for template in forms(text):
            for line in template.format(**args).split("\n"):
                assert len(line) <= 21, (key, line)
