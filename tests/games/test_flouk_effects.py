"""Flouk: structured powers and effects, the report loop, Decree kinds and the house rules."""
from __future__ import annotations

import pytest

from device.cli.replay import replay_text
from engine.core.script import ScriptError
from tests.games.test_flouk import FL, SURE, load, quiet_rounds, script, turn
from tests.support import outcome, run, scores

ST = load("structured")      # see the comments of flouk_data/structured.toml
VILLAGES = ("select", turn("mouta#1", "faar#1", "faar#2"))      # P1 Mouta, P2 Faar, P3 Faar


def play(*lines: str, options: tuple[str, ...] = (), data=ST) -> dict:
    return outcome(script(*lines, options=options), data)


def last_messages(*lines: str, data=ST) -> list[str]:
    return run(script(*lines), data).records[-1].messages


def test_move_village_card_from_a_chosen_opponent():
    lines = VILLAGES + (turn("chief_mouta#1", "faar#3", "mouta#2"),)
    chosen = play(*lines)
    assert chosen["prompt"]["id"] == "effect_target"
    assert chosen["prompt"]["options"] == ["P2", "P3", "skip"]
    assert chosen["prompt"]["text"] == "Mouta Chief: P1,\ntake from whom?"
    result = play(*lines, "choose P2", "tap faar#2", "tap mouta#2", "back", "choose P3", "tap faar#2")
    assert [r["code"] for r in result["rejected"]] == ["E_NOT_ELIGIBLE", "E_NOT_ELIGIBLE"]
    assert result["details"]["villages"]["P1"] == ["mouta#1", "chief_mouta#1", "faar#2"]
    assert scores(result) == {"P1": 3, "P2": 2, "P3": 1}
    assert result["prompt"]["id"] == "reveal" and result["details"]["turn"] == 3


def test_a_chief_power_runs_only_the_first_time():
    lines = VILLAGES + (turn("chief_mouta#1", "faar#3", "mouta#2"), "choose skip",
                        turn("mouta#3", "action#5", "mouta#4"), "tap chief_mouta#1", "choose village:P2")
    result = play(*lines, "select")
    assert "chief_mouta#1" in result["details"]["villages"]["P2"]
    assert result["details"]["chief_power_used"] == ["chief_mouta#1"]
    assert result["prompt"]["id"] == "deal"


def test_draw_from_pile_then_the_pile_check():
    lines = VILLAGES + (turn("mouta#3", "chief_faar#1", "mouta#2"),)
    assert "P2: draw 2\nfrom the pile" in last_messages(*lines)
    drawn = play(*lines)
    assert drawn["details"]["pile"] == 86 and drawn["details"]["hands"] == {"P1": 2, "P2": 4, "P3": 2}
    ended = play(*lines, turn("mouta#4", "faar#3", "mouta#5"))
    assert ended["prompt"]["id"] == "pile_check" and ended["prompt"]["options"] == ["deal", "end_game"]
    assert ended["prompt"]["text"] == "Discard last card.\nPile ~86. Enough\nfor 4 each?"
    assert play(*lines, turn("mouta#4", "faar#3", "mouta#5"), "choose deal")["details"]["pile"] == 74
    assert play(*lines, turn("mouta#4", "faar#3", "mouta#5"), "choose end_game")["over"]


def test_power_none_and_no_target():
    assert "Bloup Chief:\nno effect" in last_messages(
        "select", turn("bloup#1", "faar#1", "faar#2"), turn("chief_bloup#1", "faar#3", "mouta#2"))
    assert last_messages(*VILLAGES, turn("action#1", "mouta#2", "mouta#3"))[-1] == "No target: no effect"


def test_discard_village_card_from_an_opponent_keeps_to_the_filter():
    lines = ("select", turn("mouta#1", "faar#1", "mouta#2"), turn("chief_mouta#1", "faar#2", "mouta#3"),
             "choose skip", turn("action#1", "faar#3", "mouta#4"))
    assert last_messages(*lines)[-2:] == ["No target: no effect", "Round 1 over"]   # no Chief
    lines = ("select", turn("faar#1", "mouta#1", "mouta#2"), turn("faar#2", "chief_mouta#1", "mouta#3"),
             "choose skip", turn("action#1", "faar#3", "mouta#4"))
    target = play(*lines)
    assert target["prompt"]["options"] == ["P2", "skip"]
    result = play(*lines, "choose P2", "tap mouta#1", "tap chief_mouta#1")
    assert [r["code"] for r in result["rejected"]] == ["E_NOT_ELIGIBLE"]
    assert "chief_mouta#1" in result["details"]["discard"] and scores(result)["P2"] == 2


def test_steal_from_hand():
    result = play(*VILLAGES, turn("action#2", "mouta#2", "mouta#3"), "choose P3")
    assert result["details"]["hands"] == {"P1": 3, "P2": 2, "P3": 1}
    assert result["prompt"]["id"] == "reveal" and result["details"]["turn"] == 3


def test_move_from_any_village_and_discard_from_own():
    result = play(*VILLAGES, turn("action#3", "action#4", "mouta#2"), "tap mouta#1", "tap faar#2",
                  "tap faar#1")
    assert [r["code"] for r in result["rejected"]] == ["E_NOT_ELIGIBLE"]       # own village
    assert result["details"]["villages"] == {"P1": ["mouta#1", "faar#2"], "P2": [],
                                             "P3": ["mouta#2"]}


def test_manual_effect_shows_its_text_and_runs_the_report_loop():
    lines = VILLAGES + (turn("action#5", "mouta#2", "mouta#3"),)
    assert last_messages(*lines)[-1] == "Action 5: apply\neffect by hand:\nSwap a card"
    report = play(*lines)
    assert report["prompt"] == {"id": "report", "options": ["face_down"],
                                "text": "Action 5: by hand,\ntap each moved card\n0/6 moved, SELECT"}
    dest = play(*lines, "tap bloup#9")
    assert dest["prompt"]["options"] == ["village:P1", "village:P2", "village:P3", "discard",
                                         "hand:P1", "hand:P2", "hand:P3", "pile"]
    source = play(*lines, "tap bloup#9", "choose village:P1")
    assert source["prompt"]["id"] == "report_from"
    assert source["prompt"]["options"] == ["pile", "hand:P1", "hand:P2", "hand:P3"]
    moved = play(*lines, "tap bloup#9", "choose village:P1", "choose hand:P1", "tap faar#2",
                 "choose discard", "tap action#5", "back", "choose face_down", "choose pile",
                 "choose hand:P2", "select")
    assert moved["details"]["villages"]["P1"] == ["mouta#1", "bloup#9"]
    assert "faar#2" in moved["details"]["discard"]
    assert moved["details"]["hands"] == {"P1": 1, "P2": 3, "P3": 2} and moved["details"]["pile"] == 87
    assert moved["prompt"]["id"] == "reveal" and not moved["rejected"]


def test_report_loop_takes_at_most_six_moves():
    lines = VILLAGES + (turn("action#5", "mouta#2", "mouta#3"),)
    moves = [f"tap bloup#{n}\nchoose discard\nchoose pile" for n in range(1, 7)]
    full = play(*lines, *moves, "tap bloup#7", "choose face_down")
    assert [r["code"] for r in full["rejected"]] == ["E_ILLEGAL", "E_NOT_EXPECTED"]
    assert full["prompt"]["options"] == [] and len(full["details"]["discard"]) == 7


def test_decree_kinds():
    bloups = ("select", turn("bloup#1", "mouta#1", "faar#1"), turn("bloup#2", "napil#1", "faar#2"))
    # P1: 2 Bloups, +3; P2: only 2 peoples, no multiplier; P3: a flat +2
    assert scores(play(*bloups, turn("decree#2", "decree#3", "decree#4"))) == {"P1": 5, "P2": 2, "P3": 4}
    text = last_messages(*bloups, turn("decree#4", "mouta#2", "faar#3"))
    assert "P1: new Decree\nTwo more inhabitants" in text


def test_conditional_decree_with_three_peoples_multiplies_mouta():
    lines = ("select", turn("bloup#1", "mouta#1", "faar#1"), turn("mouta#2", "napil#1", "faar#2"),
             turn("faar#3", "decree#3", "faar#4"))
    assert scores(play(*lines))["P1"] == 3 and scores(play(*lines))["P2"] == 2
    lines = ("select", turn("bloup#1", "mouta#1", "faar#1"), turn("mouta#2", "napil#1", "faar#2"),
             turn("faar#3", "mouta#3", "decree#1"), "select", turn("decree#3", "parok#1", "bloup#2"))
    assert scores(play(*lines)) == {"P1": 5, "P2": 4, "P3": 4}


def test_white_tie_prompt_lets_the_table_order():
    lines = ("select", turn("bloup#1", "mouta#1", "bloup#2"), turn("faar#1", "mouta#2", "faar#2"),
             turn("faar#3", "mouta#3", "faar#4"), "select", turn("action#1", "mouta#4", "action#4"))
    ask = outcome(script(*lines, options=("white_tie=prompt",)), FL)
    assert ask["prompt"]["id"] == "order" and ask["prompt"]["options"] == ["P3", "P1"]
    assert ask["details"]["step"] == "action"        # the tied Actions' step, not the Flouks'
    chosen = run(script(*lines, "choose P1", options=("white_tie=prompt",)), FL).session.state
    assert (chosen.current, chosen.card) == ("P1", "action#1")


def test_round_turns_until_hands_le1():
    lines = VILLAGES + (turn("mouta#3", "chief_faar#1", "mouta#2"), turn("mouta#4", "faar#3", "mouta#5"))
    assert play(*lines)["prompt"]["id"] == "pile_check"
    longer = play(*lines, options=("round_turns=until_hands_le1",))
    assert longer["prompt"]["id"] == "reveal" and longer["details"]["turn"] == 4
    assert longer["details"]["hands"] == {"P1": 1, "P2": 3, "P3": 1}
    fifth = play(*lines, turn("mouta#6", "faar#4", "mouta#7"), options=("round_turns=until_hands_le1",))
    assert fifth["details"]["turn"] == 5 and fifth["details"]["hands"] == {"P1": 0, "P2": 2, "P3": 0}
    done = play(*lines, turn("mouta#6", "faar#4", "mouta#7"), turn(None, "faar#5", None),
                options=("round_turns=until_hands_le1",))
    assert done["prompt"]["id"] == "pile_check" and done["details"]["discard_count"] == 1


def test_final_census_counts_what_is_tapped():
    lines = ("select", turn("mouta#1", "faar#1", "decree#2"), turn(SURE, SURE, SURE),
             turn(None, None, None), *quiet_rounds(7), "select")
    census = outcome(script(*lines, options=("final_census=true",)), FL)
    assert census["prompt"]["id"] == "census" and census["details"]["current"] == "P1"
    taps = ("tap mouta#1", "tap bloup#4", "tap action#1", "tap mouta#1", "select",
            "tap faar#1", "tap bloup#4", "select", "tap decree#2", "tap decree#3", "tap faar#2", "select")
    replay = run(script(*lines, *taps, options=("final_census=true",)), FL)
    result = outcome(script(*lines, *taps, options=("final_census=true",)), FL)
    assert [r["code"] for r in result["rejected"]] == ["E_ILLEGAL", "E_SAME_CARD", "E_SAME_CARD",
                                                        "E_ILLEGAL"]
    assert result["details"]["villages"] == {"P1": ["mouta#1", "bloup#4"], "P2": ["faar#1"],
                                             "P3": ["faar#2"]}
    assert any("P1: census +1\n-0; census counts" in r.messages for r in replay.records)
    assert result["prompt"]["id"] == "decree_adjust" and result["details"]["current"] == "P3"
    assert not replay.session.spec.invariants(replay.session.state)


def test_tie_rule_none_gives_no_winner():
    assert play(*quiet_rounds(8), "select", data=FL)["winners"] == ["P1", "P2", "P3"]
    result = play(*quiet_rounds(8), "select", options=("tie_rule=none",), data=FL)
    assert result["over"] and result["winners"] == []
    assert result["prompt"]["text"] == "Tie at 0:\nno winner"


def test_manual_decree_cannot_go_below_zero():
    lines = ("select", turn("decree#5", SURE, SURE), turn(SURE, None, None), turn(None, None, None),
             *quiet_rounds(7), "select")
    result = play(*lines, "choose minus", "choose plus", "choose plus", "choose minus", "select")
    assert [r["code"] for r in result["rejected"]] == ["E_ILLEGAL"]
    assert scores(result)["P1"] == 1 and result["winners"] == ["P1"]


def test_player_range_options_and_two_players():
    with pytest.raises(ScriptError, match="needs 3-5 players"):
        replay_text("game flouk\nplayers A B\n", FL)
    two = outcome("game flouk\nplayers A B\noption min_players=2\n", FL)
    assert two["prompt"]["text"].startswith("Deal 4 each. Keep 2,\ngive 2 face down to")
    assert outcome("game flouk\nplayers A B\noption min_players=2\nselect\n", FL)["details"]["pile"] == 92
    six = "game flouk\nplayers A B C D E F\noption max_players=6\nselect\n"
    assert outcome(six, FL)["details"]["pile"] == 76
