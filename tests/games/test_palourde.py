"""Palourde: one test per scenario of the rules, driven as event scripts."""
from __future__ import annotations

import engine
from engine import Choose, Confirm, Info, Rejected, Session, Tap, make_config
from tests.support import outcome, rejected_codes, run, scores

SPEC = engine.get("palourde")
HEAD = "game palourde\nplayers A B C\n"


def play(lines: str, options: str = "") -> dict:
    return outcome(HEAD + options + lines)


def state_of(lines: str, options: str = ""):
    return run(HEAD + options + lines).session.state


def test_pa01_join_by_basket_taps():
    session = Session(SPEC, make_config(SPEC, []))
    assert session.play(Tap("basket#1")).__class__.__name__ == "Accepted"
    session.play(Tap("basket#2"))
    again = session.play(Tap("basket#2"))
    assert (again.code, again.message) == ("E_ILLEGAL", "Already joined")
    assert len(session.state.seats) == 2
    assert session.play(Tap("clam#1")).code == "E_NOT_EXPECTED"
    session.play(Tap("basket#3"))
    session.play(Confirm())
    assert session.state.phase == "first"
    session.play(Tap("basket#1"))
    assert session.state.seats == ("P1", "P2", "P3")
    assert (session.state.current, session.state.phase) == ("P1", "beach")
    assert len(session.state.beach_down) == 53
    session.play(Confirm())
    assert session.state.phase == "flip1"


def test_pa01_variant_select_with_one_player():
    session = Session(SPEC, make_config(SPEC, []))
    session.play(Tap("basket#4"))
    refused = session.play(Confirm())
    assert isinstance(refused, Rejected) and refused.message == "Need 2–5 players"


def test_pa01_fifth_basket_continues_on_its_own():
    session = Session(SPEC, make_config(SPEC, []))
    for n in (5, 3, 1, 2, 4):
        session.play(Tap(f"basket#{n}"))
    assert session.state.phase == "first"
    assert session.state.baskets == (5, 3, 1, 2, 4)
    session.play(Choose("P2"))
    assert session.state.current == "P2"


def test_pa02_clam_pair():
    result = play("tap clam#1\ntap clam#2\n")
    assert scores(result)["A"] == 2
    assert result["details"]["beach_down"] == 51
    assert result["prompt"]["id"] == "flip1" and result["details"]["current"] == "B"


def test_pa03_clam_rake_replays_then_miss_passes():
    after_pair = "tap clam#1\ntap clam#2\ntap rake#1\ntap clam#3\n"   # PA-02, then B: Rake, Clam
    state = state_of(after_pair)
    assert (state.current, dict(state.clams)["B"]) == ("B", 1)
    assert {"rake#1", "clam#3"} <= state.removed and state.phase == "flip1"
    state = state_of(after_pair + "tap beach#1\ntap shell#1\n")
    assert len(state.beach_down) == 49 and dict(state.clams)["B"] == 1
    assert state.current == "C"


PA04 = ("tap clam#1\ntap clam#2\n"       # A=2
        "tap rake#1\ntap clam#3\n"       # B=1, B again
        "tap beach#1\ntap shell#1\n"     # B misses
        "tap crab#1\ntap crab#2\n")      # C: crab pair


def test_pa04_crab_steal_menu_and_self_tap():
    before = run(HEAD + PA04)
    assert before.session.state.phase == "victim"
    prompt = SPEC.prompt(before.session.state)
    assert prompt.keys() == ("A", "B", "no_steal")
    assert [o.label.text() for o in prompt.options] == ["A (2)", "B (1)", "No steal"]
    result = play(PA04 + "tap basket#3\nchoose A\n")
    assert result["rejected"] == [{"line": 11, "code": "E_NOT_ELIGIBLE", "message": "Can't rob yourself"}]
    assert scores(result) == {"A": 1, "B": 1, "C": 1}
    state = state_of(PA04 + "tap basket#3\nchoose A\n")
    assert {"crab#1", "crab#2"} <= state.removed and state.current == "A" and state.phase == "flip1"


def test_pa04_basket_tap_chooses_victim_and_clamless_is_refused():
    result = play("tap clam#1\ntap clam#2\ntap beach#1\ntap shell#1\ntap crab#1\ntap crab#2\n"
                  "tap basket#2\ntap basket#1\n")
    assert rejected_codes(result) == ["E_NOT_ELIGIBLE"]
    assert result["rejected"][0]["message"] == "B has no clams"
    assert scores(result) == {"A": 1, "B": 0, "C": 1}


def test_pa05_crab_pair_with_nobody_to_rob():
    replay = run(HEAD + "tap beach#1\ntap shell#1\ntap beach#2\ntap shell#2\n"
                 "tap clam#1\ntap clam#2\ntap beach#3\ntap shell#3\ntap beach#4\ntap shell#4\n"
                 "tap clam#3\ntap rake#1\ntap crab#3\ntap crab#4\n")
    state = replay.session.state
    assert dict(state.clams) == {"A": 0, "B": 0, "C": 3}
    assert replay.records[-1].messages == ["No clams to steal\nC: discard both\nCrabs\nA plays next"]
    assert state.phase == "flip1" and state.current == "A"
    assert {"crab#3", "crab#4"} <= state.removed


def test_pa06_bird_eats_and_bird_pairs_miss():
    state = state_of("tap bird#1\ntap clam#4\ntap bird#2\ntap bird#3\ntap bird#2\ntap rake#2\n")
    assert {"bird#1", "clam#4"} <= state.removed
    assert {"bird#2", "bird#3", "rake#2"} <= state.beach_down
    assert dict(state.clams) == {"A": 0, "B": 0, "C": 0}
    assert state.current == "A"


def test_pa07_high_tide_first_ends_the_turn():
    state = state_of("tap high_tide#1\n")
    assert state.ht_up == {"high_tide#1"} and state.current == "B" and state.phase == "flip1"
    state = state_of("tap high_tide#1\ntap clam#1\n")
    assert state.current == "B" and state.first_flip == "clam#1"


def test_pa08_high_tide_second_turns_the_first_back():
    state = state_of("tap high_tide#1\ntap clam#5\ntap high_tide#2\n")
    assert len(state.ht_up) == 2 and "clam#5" in state.beach_down
    assert state.current == "C" and state.phase == "flip1"


C_HAS_3 = ("tap beach#1\ntap shell#1\ntap beach#2\ntap shell#3\n"      # A, B miss
           "tap clam#1\ntap rake#1\ntap clam#2\ntap rake#2\ntap clam#3\ntap rake#3\n")  # C: 3, replays


def test_pa09_basket_overboard():
    replay = run(HEAD + C_HAS_3 + "tap shell#2\ntap basket_overboard\n")
    state = replay.session.state
    assert dict(state.clams)["C"] == 0 and "basket_overboard" in state.removed
    assert "shell#2" in state.beach_down and (state.current, state.phase) == ("C", "flip1")
    assert replay.records[-1].messages == ["Basket overboard!\nDiscard it and your\n3 clams\nC: play again"]
    empty = run(HEAD + "tap basket_overboard#1\n")
    assert empty.records[-1].messages == ["Basket overboard!\n(empty) Discard it\nA: play again"]
    assert empty.session.state.current == "A"


def test_pa10_storm():
    state = state_of("tap high_tide#1\ntap beach#1\ntap shell#1\ntap beach#2\ntap shell#2\n"
                     "tap storm_warning\n")
    assert state.phase == "storm" and state.ht_up == {"high_tide#1"}
    assert run(HEAD + "tap storm_warning\nselect\n").session.state.current == "B"
    stay = run(HEAD + "option storm_ends_turn=false\ntap storm_warning\nselect\n").session.state
    assert stay.current == "A"
    variant = run(HEAD + "tap clam#6\ntap storm_warning\nselect\n").session.state
    assert "clam#6" in variant.beach_down and variant.current == "B"


def test_pa10_storm_can_reset_high_tides_with_the_option():
    state = state_of("tap high_tide#1\ntap storm_warning\n", "option storm_resets_high_tides=true\n")
    assert not state.ht_up and "high_tide#1" in state.beach_down


def test_pa11_shrimp_peek_reminder_lasts_one_turn():
    replay = run(HEAD + "tap beach#1\ntap shell#1\ntap shrimp#1\ntap shrimp#2\n")
    state = replay.session.state
    assert {"shrimp#1", "shrimp#2"} <= state.removed
    assert replay.records[-1].messages == ["Shrimp + Shrimp!\nB: peek at 1 card\nDiscard both\nC plays next"]
    assert state.current == "C"
    from engine.games.palourde.prompts import reminder
    assert reminder(state).text() == "Not B's peeked card"
    after = run(HEAD + "tap beach#1\ntap shell#1\ntap shrimp#1\ntap shrimp#2\ntap beach#2\ntap shell#2\n")
    assert reminder(after.session.state) is None


def test_pa12_end_of_game_and_game_over():
    script = ("tap clam#1\ntap clam#2\ntap clam#3\ntap clam#4\ntap clam#5\ntap clam#6\n"  # 2/2/2
              "tap clam#8\ntap clam#9\ntap clam#10\ntap clam#11\n"                     # A 4, B 4
              "tap high_tide#1\ntap high_tide#2\n"                                     # C, A
              "tap clam#12\ntap clam#13\n")                                            # B 6
    result = play(script + "tap clam#7\ntap high_tide#3\ntap clam#8\n")
    assert result["over"] is True
    assert scores(result) == {"A": 4, "B": 6, "C": 2}
    assert result["winners"] == ["B"] and result["prompt"]["text"] == "Golden Clam -> B\n(6)"
    assert result["rejected"][-1]["code"] == "E_GAME_OVER"
    assert result["details"]["high_tides_up"] == 3


def test_pa13_tie_gives_co_winners():
    script = ("tap clam#1\ntap clam#2\n"      # A 2
              "tap clam#3\ntap clam#4\n"      # B 2
              "tap high_tide#1\n"             # C
              "tap high_tide#2\n"             # A
              "tap beach#1\ntap shell#1\n"    # B
              "tap high_tide#3\n")            # C
    assert play(script)["winners"] == ["A", "B"]
    assert play(script, "option tie_rule=none\n")["winners"] == []


def test_pa14_invalid_taps_in_flip2():
    script = ("tap clam#1\ntap clam#2\n"        # A banks Clam#1
              "tap high_tide#1\n"               # B
              "tap beach#1\ntap shell#1\n"      # C
              "tap clam#9\n")                   # A: FLIP2(A, clam#9)
    base = run(HEAD + script).session.state
    probe = ["tap clam#9", "tap clam#1", "tap high_tide#1", "tap golden_clam", "tap KS",
             "tap uid:04A1B2C3", "tap basket#2"]
    replay = run(HEAD + script + "\n".join(probe) + "\n")
    codes = [(r.verdict, r.code) for r in replay.records[-7:]]
    assert codes == [("rejected", "E_SAME_CARD"), ("rejected", "E_OUT_OF_PLAY"),
                     ("rejected", "E_IN_PLAY"), ("rejected", "E_NOT_EXPECTED"),
                     ("rejected", "E_WRONG_GAME"), ("rejected", "E_UNKNOWN_CARD"), ("info", None)]
    assert replay.records[-4].messages == ["Prize card,\nnot on Beach"]
    assert replay.records[-3].messages == ["That's a Tamalou card"]
    assert replay.records[-1].messages == ["B: 0 clams"]
    assert replay.session.state == base and base.phase == "flip2" and base.first_flip == "clam#9"


def test_pa15_replay_chain():
    replay = run(HEAD + "tap clam#10\ntap rake#3\ntap rake#3\ntap clam#11\ntap rake#4\n"
                 "tap beach#2\ntap shell#3\n")
    state = replay.session.state
    assert dict(state.clams)["A"] == 2 and state.current == "B"
    # the double read of Rake#3 is dropped by the presence debounce on the device;
    # even if it reaches the rules it is refused and changes nothing
    assert replay.records[2].code == "E_OUT_OF_PLAY"


def test_basket_tap_is_info_only():
    session = Session(SPEC, make_config(SPEC, ["A", "B"]))
    before = session.state
    assert isinstance(session.play(Tap("basket#1")), Info)
    assert session.state == before and not session.events


def test_undo_restores_the_turn_pass_in_one_step():
    session = Session(SPEC, make_config(SPEC, ["A", "B"]))
    session.play(Tap("clam#1"))
    first = session.state
    session.play(Tap("clam#2"))
    session.undo()
    assert session.state == first
    session.redo()
    assert dict(session.state.clams)["A"] == 2
    session.undo()
    session.play(Tap("beach#1"))
    assert not session.can_redo()
