"""A tribord!: one test per scenario of the rules, driven as event scripts.

Three players P1-P3, 10 tokens each, the Button with P1. Card `4a` of the
scenarios is `4#1`, `9b` is `9#2`, and so on.
"""
from __future__ import annotations

import dataclasses

import engine
from engine import Accepted, Session, make_config, step
from engine.games.auberge.deck import card_order, pairs_with
from engine.games.tribord import tribord
from tests.support import codes, outcome, rejected_codes, run, scores

SPEC = engine.get("tribord")
HEAD = "game tribord\nplayers P1 P2 P3\n"

AT01 = "tap 4#1\ntap 9#1\n"
AT02 = AT01 + ("choose draw\ntap 2#1\nchoose block\nchoose draw\ntap 7#1\n"
               "choose block\nchoose draw\ntap 9#2\n")
AT03 = AT02 + "tap 6#1\ntap 6#2\n"
AT04 = AT03 + "choose draw\ntap 8#1\nchoose draw\ntap 10#1\nchoose block\nchoose block\nchoose block\n"
AT05 = AT04 + "tap 5#1\ntap 3#1\nchoose block\nchoose draw\ntap 5#2\nchoose draw\ntap 3#2\n"


def play(lines: str, head: str = HEAD) -> dict:
    return outcome(head + lines)


def messages(lines: str, head: str = HEAD) -> list[str]:
    return run(head + lines).records[-1].messages


def tokens(result: dict) -> list[int]:
    return [p["score"] for p in result["players"]]


def outs(result: dict) -> list[str]:
    return [p["name"] for p in result["players"] if p["out"]]


def deciding(result: dict) -> str:
    assert result["prompt"]["id"] == "decide"
    return result["details"]["current"]


def test_at01_round_1_setup():
    waiting = play("")
    assert waiting["prompt"]["id"] == "common" and waiting["details"]["pile"] == 55
    result = play(AT01)
    assert result["details"]["common"] == ["4#1", "9#1"]
    assert tokens(result) == [9, 9, 9]
    assert result["details"]["pot"] == 3 and result["details"]["pile"] == 53
    assert result["details"]["round"] == 1 and result["details"]["button"] == "P1"
    assert deciding(result) == "P1"
    assert result["prompt"]["options"] == ["draw", "block"]


def test_at02_round_1_play():
    after_p1 = play(AT01 + "choose draw\ntap 2#1\n")
    assert tokens(after_p1)[0] == 8 and after_p1["details"]["pot"] == 4
    after_p3 = play(AT01 + "choose draw\ntap 2#1\nchoose block\nchoose draw\ntap 7#1\n")
    assert tokens(after_p3)[2] == 8 and after_p3["details"]["pot"] == 5
    assert outs(after_p3) == ["P2"] and deciding(after_p3) == "P1"
    assert messages(AT01 + "choose draw\ntap 2#1\nchoose block\nchoose draw\ntap 7#1\n") == \
        ["Good draw!\nP2 out\nthis round"]
    assert messages(AT02) == ["Pair! P3 is out\nthis round. Discard\nthe drawn card",
                              "Round 1 over:\ndiscard the centre\ncards", "P1 takes 6\nnow 14 tokens",
                              "Tokens: P1\u00a014, P2\u00a09, P3\u00a07", "P2 takes the\nButton"]
    result = play(AT02)
    assert scores(result) == {"P1": 14, "P2": 9, "P3": 7}
    assert result["details"]["pot"] == 0 and sum(tokens(result)) == 30
    assert result["details"]["round"] == 2 and result["prompt"]["id"] == "common"


def test_at03_round_2_with_a_paired_start():
    result = play(AT03)
    assert result["details"]["button"] == "P2"
    assert result["details"]["common"] == []
    assert scores(result) == {"P1": 13, "P2": 8, "P3": 6}
    assert result["details"]["pot"] == 3 and deciding(result) == "P2"
    assert messages(AT03) == ["Pair! Discard both", "Everyone puts 1 token\nin the pot: 3"]
    assert result["details"]["discard"] == 7 and result["details"]["pile"] == 48


def test_at04_remainder_carries_over():
    before_blocks = play(AT03 + "choose draw\ntap 8#1\nchoose draw\ntap 10#1\n")
    assert scores(before_blocks) == {"P1": 13, "P2": 7, "P3": 5}
    assert before_blocks["details"]["pot"] == 5
    result = play(AT04)
    assert scores(result) == {"P1": 14, "P2": 8, "P3": 6}
    assert result["details"]["pot"] == 2
    assert messages(AT04)[-3:] == ["2 left in the pot", "Tokens: P1\u00a014, P2\u00a08, P3\u00a06",
                                   "P3 takes the\nButton"]


def test_at05_one_blocker_survives():
    antes = play(AT04 + "tap 5#1\ntap 3#1\n")
    assert antes["details"]["pot"] == 5 and deciding(antes) == "P3"
    failed = play(AT05.removesuffix("tap 3#2\n").removesuffix("choose draw\n"))
    assert outs(failed) == ["P1"]
    result = play(AT05)
    assert scores(result) == {"P1": 12, "P2": 6, "P3": 12}
    assert result["details"]["pot"] == 0 and result["details"]["round"] == 4


def test_at06_forced_block_of_the_last_one_in():
    result = play(AT01 + "choose draw\ntap 4#2\nchoose draw\ntap 9#2\n")
    assert messages(AT01 + "choose draw\ntap 4#2\nchoose draw\ntap 9#2\n")[:3] == [
        "Pair! P2 is out\nthis round. Discard\nthe drawn card", "Last pirate standing:\nP3 must block",
        "Round 1 over:\ndiscard the centre\ncards"]
    assert scores(result) == {"P1": 8, "P2": 8, "P3": 14}
    assert result["prompt"]["id"] == "common" and result["details"]["round"] == 2


def test_at07_a_good_draw_puts_out_every_blocker():
    script = AT01 + "choose block\nchoose block\nchoose draw\ntap 2#1\n"
    assert messages(script)[:2] == ["Good draw!\nP1, P2 out\nthis round", "Last pirate standing:\nP3 must block"]
    result = play(script)
    assert scores(result) == {"P1": 9, "P2": 9, "P3": 12}
    assert result["details"]["pot"] == 0


AT08_HEAD = HEAD + "option start_tokens=3\n"
AT08 = (AT01 + "choose draw\ntap 2#1\nchoose draw\ntap 9#2\nchoose block\nchoose block\n"  # P1 3, P2 1, P3 4
        "tap 5#1\ntap 3#1\n")                                                    # round 2: P2 at 0


def test_at08_zero_tokens_must_block():
    before = play(AT08, AT08_HEAD)
    assert scores(before) == {"P1": 2, "P2": 0, "P3": 3} and before["details"]["pot"] == 4
    assert deciding(before) == "P2" and before["prompt"]["options"] == ["block"]
    result = play(AT08 + "choose draw\nchoose block\n", AT08_HEAD)
    assert result["rejected"] == [{"line": 14, "code": "E_ILLEGAL",
                                   "message": "No tokens:\nyou must block"}]
    assert deciding(result) == "P3"


AT09 = AT08 + "choose draw\nchoose block\nchoose draw\ntap 6#1\nchoose block\nchoose block\n"


def test_at09_game_ends_after_a_payout_with_a_player_at_zero():
    result = play(AT09, AT08_HEAD)
    assert scores(result) == {"P1": 4, "P2": 0, "P3": 4}
    assert result["over"] and result["winners"] == ["P1", "P3"]
    assert result["prompt"]["text"] == "Shared win:\nP1, P3\n(4 tokens)"
    assert rejected_codes(play(AT09 + "tap 7#1\n", AT08_HEAD))[-1] == "E_GAME_OVER"
    no_tie = play(AT09, AT08_HEAD + "option tie_rule=none\n")
    assert no_tie["over"] and no_tie["winners"] == []


def test_at10_invalid_taps_and_back_charge_nothing():
    script = AT01 + "choose draw\ntap 9#2\ntap 5#1\nchoose draw\ntap 4#1\ntap 9#2\nback\n"
    result = play(script)
    assert codes(result) == [(7, "E_NOT_EXPECTED"), (9, "E_IN_PLAY"), (10, "E_OUT_OF_PLAY")]
    assert result["rejected"][0]["message"] == "Choose Draw or Block"
    assert deciding(result) == "P2"
    assert scores(result) == {"P1": 8, "P2": 9, "P3": 9} and result["details"]["pot"] == 4


def drain_pile(stop_at: str, avoid_pairs: bool) -> str:
    """Events of two players who always draw, until the pile is empty in phase `stop_at`.

    Drawing cards that do not pair keeps the round going, so the pile runs out at a
    decision; taking cards in deck order makes it run out between two rounds.
    """
    session = Session(SPEC, make_config(SPEC, ["P1", "P2"], options={"start_tokens": "60"}))
    lines = []
    while not (session.state.pile == 0 and session.state.phase == stop_at):
        state = session.state
        unseen = sorted(tribord.DECK - set(state.common) - state.discard, key=card_order)
        fresh = [c for c in unseen if not pairs_with(c, state.common)] if avoid_pairs else []
        taps = [engine.Tap((fresh or unseen)[0])] if unseen else []
        legal = [e for e in [engine.Choose("draw")] + taps + [engine.Confirm(), engine.Choose("block")]
                 if isinstance(step(SPEC, state, e), Accepted)]
        session.play(legal[0])
        lines.append(str(legal[0]))
    return "\n".join(lines) + "\n"


def test_at11_reshuffle_before_a_draw():
    head = "game tribord\nplayers P1 P2\noption start_tokens=60\n"
    script = drain_pile("decide", avoid_pairs=True)
    empty = play(script, head)
    assert empty["details"]["pile"] == 0 and empty["rejected"] == []
    discards = empty["details"]["discard"]
    assert discards == 55 - len(empty["details"]["common"])
    asked = play(script + "choose draw\n", head)
    assert asked["prompt"]["id"] == "reshuffle"
    assert asked["prompt"]["text"] == "Pile empty! Shuffle\nthe discards into a\nnew pile. SELECT"
    done = play(script + "choose draw\nselect\n", head)
    assert done["details"]["pile"] == discards and done["details"]["discard"] == 0
    assert done["prompt"]["id"] == "draw"
    old_discard = sorted(tribord.DECK - set(done["details"]["common"]), key=card_order)[0]
    tapped = play(script + f"choose draw\nselect\ntap {old_discard}\n", head)
    assert tapped["rejected"] == [] and tapped["details"]["pile"] == discards - 1


def test_at11_reshuffle_before_a_common_card():
    head = "game tribord\nplayers P1 P2\noption start_tokens=60\n"
    script = drain_pile("reshuffle", avoid_pairs=False)
    result = play(script, head)
    assert result["prompt"]["id"] == "reshuffle"
    done = play(script + "select\n", head)
    assert done["prompt"]["id"] == "common" and done["details"]["discard"] == 0


def test_at12_two_players():
    head = "game tribord\nplayers P1 P2\n"
    script = AT01 + "choose draw\ntap 2#1\nchoose draw\ntap 9#2\n"
    assert "Last pirate standing:\nP1 must block" in messages(script, head)
    result = play(script, head)
    assert scores(result) == {"P1": 12, "P2": 8} and result["details"]["pot"] == 0


# ---- options and invariants ----------------------------------------------------

def test_option_initial_pair_redeal():
    head = HEAD + "option initial_pair=redeal\n"
    result = play("tap 6#1\ntap 6#2\n", head)
    assert result["prompt"]["id"] == "common" and result["details"]["pot"] == 0
    assert tokens(result) == [10, 10, 10]
    dealt = play("tap 6#1\ntap 6#2\ntap 6#1\ntap 4#1\ntap 9#1\n", head)
    assert rejected_codes(dealt) == ["E_OUT_OF_PLAY"]
    assert dealt["details"]["common"] == ["4#1", "9#1"] and dealt["details"]["pot"] == 3


def test_option_button_fixed():
    result = play(AT03, HEAD + "option button=fixed\n")
    assert result["details"]["button"] == "P1" and deciding(result) == "P1"


def test_first_holds_the_button():
    result = play(AT01, "game tribord\nplayers P1 P2 P3\nfirst P3\n")
    assert result["details"]["button"] == "P3" and deciding(result) == "P3"


def test_option_last_open_forces_the_last_undecided_pirate():
    result = play(AT01 + "choose block\nchoose block\n", HEAD + "option last_player_rule=last_open\n")
    assert scores(result) == {"P1": 10, "P2": 10, "P3": 10}
    assert result["details"]["pot"] == 0 and result["details"]["round"] == 2
    default = play(AT01 + "choose block\nchoose block\n")
    assert deciding(default) == "P3"


def test_option_hints():
    head = HEAD + "option hints=true\n"
    assert play("tap 6#1\ntap 6#2\n", head)["prompt"]["text"].endswith("(no card can pair)")
    assert "(" not in play("tap 6#1\ntap 6#2\n")["prompt"]["text"]
    assert "(" not in play(AT01, head)["prompt"]["text"]


def test_successful_drawer_decides_again():
    result = play(AT01 + "choose draw\ntap 2#1\nchoose draw\ntap 3#1\nchoose draw\ntap 5#1\n")
    assert deciding(result) == "P1"
    assert result["details"]["status"] == {"P1": "open", "P2": "open", "P3": "open"}


def test_invariants_catch_lost_tokens_and_cards():
    state = run(HEAD + AT02).session.state
    assert tribord.invariants(state) == []
    assert tribord.invariants(dataclasses.replace(state, pot=state.pot + 1))
    assert tribord.invariants(dataclasses.replace(state, pile=state.pile - 1))
    assert tribord.invariants(dataclasses.replace(state, common=("9#2",), pile=state.pile - 1))


def test_tokens_and_cards_are_conserved_through_the_story():
    session = run(HEAD + AT05).session
    for state in session._states:
        assert sum(n for _, n in state.tokens) + state.pot == 30
        assert state.pile + len(state.common) + len(state.discard) == 55


def test_texts_fit_the_screen():
    from engine.core.text import forms
    from engine.games.tribord.texts_en import TEXT
    args = dict(name="Ann", names="Ann, Bob", n=10, k=1, pot=70, round=12, total=70,
                hint="(every draw pairs)", scores="Ann 10", start_tokens=10)  # a list: wrapped
    for key, text in TEXT.items():
        for template in forms(text):
            for line in template.format(**args).split("\n"):
                assert len(line) <= 21, (key, line)
