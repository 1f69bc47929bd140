"""Flouk: one test per scenario of the rules, driven as event scripts with the FL test data."""
from __future__ import annotations

import tomllib
from pathlib import Path

import engine
from engine import Tap, step
from engine.core.codec import dumps
from engine.games.flouk.state import DECK_SIZE, pending
from tests.support import outcome, run, scores

SPEC = engine.get("flouk")
DATA_DIR = Path(__file__).parent / "flouk_data"


def load(name: str) -> dict:
    with open(DATA_DIR / f"{name}.toml", "rb") as f:
        return {"cards": tomllib.load(f)["cards"]}


FL = load("fl")


def script(*lines: str, players: str = "P1 P2 P3", options: tuple[str, ...] = ()) -> str:
    head = ["game flouk", f"players {players}"] + [f"option {o}" for o in options]
    return "\n".join(head + [line for line in lines if line]) + "\n"


SURE = "sure"     # "No card" while the device counts cards in hand: confirmed with SELECT


def turn(*cards: str | None) -> str:
    """One reveal per seat in seat order: a card id, None for "No card", SURE for a confirmed one."""
    words = {None: "choose no_card", SURE: "choose no_card\nselect"}
    return "\n".join(words.get(c, f"tap {c}") for c in cards)


def quiet_rounds(rounds: int, players: int = 3) -> list[str]:
    """Whole rounds where nobody reveals: only the deal and the discards move cards."""
    one = ["select", turn(*[SURE] * players), turn(*[None] * players), turn(*[None] * players)]
    return one * rounds


def play(*lines: str, options: tuple[str, ...] = (), players: str = "P1 P2 P3") -> dict:
    return outcome(script(*lines, players=players, options=options), FL)


def state_of(*lines: str, options: tuple[str, ...] = ()):
    return run(script(*lines, options=options), FL).session.state


def conserved(state) -> int:
    """Every one of the 100 cards, tracked by id or counted (the Flouk invariant)."""
    tracked = sum(len(v) for _, v in state.villages) + sum(1 for _, d in state.decrees if d)
    tracked += len(state.discard) + len(pending(state))
    return tracked + state.pile + state.discard_count + sum(n for _, n in state.hands)


def test_fl01_setup_and_end_after_eight_rounds():
    first = play("select")
    assert first["details"]["pile"] == 88 and first["details"]["round"] == 1
    assert first["details"]["hands"] == {"P1": 4, "P2": 4, "P3": 4}
    before_end = play(*quiet_rounds(8))
    assert before_end["details"]["pile"] == 4 and before_end["details"]["round"] == 8
    assert before_end["prompt"]["id"] == "last"        # no 9th deal
    assert before_end["prompt"]["text"] == "Discard your last\ncard. SELECT"
    end = play(*quiet_rounds(8), "select")
    assert end["over"] and end["winners"] == ["P1", "P2", "P3"]
    assert end["details"]["discard_count"] == 96 and end["details"]["round"] == 8
    assert not end["rejected"]


def test_fl01_first_prompt_is_the_deal_confirmation():
    first = play()
    assert first["prompt"] == {"id": "deal", "options": [], "text": (
        "Deal 4 each. Keep 2,\ngive 1 face down left\n+1 right; look after.\nSELECT")}
    assert first["details"]["pile"] == 100


def test_fl02_five_players_play_exactly_five_rounds():
    five = "P1 P2 P3 P4 P5"
    before_end = play(*quiet_rounds(5, 5), players=five)
    assert (before_end["details"]["pile"], before_end["details"]["round"]) == (0, 5)
    assert before_end["prompt"]["id"] == "last"
    assert play(*quiet_rounds(5, 5), "select", players=five)["over"]


def test_fl03_plain_reveal():
    result = play("select", turn("mouta#1", "faar#1", "bloup#1"))
    assert result["details"]["villages"] == {"P1": ["mouta#1"], "P2": ["faar#1"], "P3": ["bloup#1"]}
    assert result["details"]["hands"] == {"P1": 3, "P2": 3, "P3": 3}
    assert scores(result) == {"P1": 1, "P2": 1, "P3": 1}
    assert (result["prompt"]["id"], result["details"]["turn"]) == ("reveal", 2)


def test_fl04_failed_chief_goes_to_the_discard():
    replay = run(script("select", turn("chief_bloup#1", "faar#1", "bloup#1")), FL)
    state = replay.session.state
    assert "P1: Bloup Chief\nWelcome failed:\ndiscard it" in replay.records[-1].messages
    assert "chief_bloup#1" in state.discard and dict(state.villages)["P1"] == ()
    assert state.phase == "reveal" and state.turn == 2       # no power prompt
    assert not state.chief_power_used


def test_fl05_chiefs_resolve_by_white_number():
    lines = ("select", turn("mouta#1", "faar#1", "napil#1"),
             turn("chief_mouta#1", "chief_faar#1", "chief_napil#1"))
    replay = run(script(*lines), FL)
    assert replay.records[-1].messages[:3] == ["Next: Chiefs", "P3: Napil Chief\nwelcomed into your\nvillage",
                                               "Napil Chief: apply\neffect by hand"]
    order = []
    for extra in ((), ("select",), ("select", "select")):
        state = run(script(*lines, *extra), FL).session.state
        order.append((state.phase, state.current, state.card))
    assert order == [("report", "P3", "chief_napil#1"), ("report", "P1", "chief_mouta#1"),
                     ("report", "P2", "chief_faar#1")]
    result = play(*lines, "select", "select", "select")
    assert result["details"]["chief_power_used"] == ["chief_faar#1", "chief_mouta#1", "chief_napil#1"]
    assert scores(result) == {"P1": 2, "P2": 2, "P3": 2}
    assert result["prompt"]["id"] == "reveal" and result["details"]["turn"] == 3


def test_fl06_decree_replaced():
    result = play("select", turn("mouta#1", "faar#1", "decree#1"), turn("mouta#2", "faar#2", "bloup#1"),
                  turn("mouta#3", "faar#3", "decree#2"))
    assert result["details"]["decrees"]["P3"] == "decree#2"
    assert "decree#1" in result["details"]["discard"]


def test_fl07_people_action_prerequisite():
    lines = ("select", turn("mouta#1", "faar#1", "bloup#1"), turn("mouta#2", "action#1", "action#4"))
    replay = run(script(*lines), FL)
    assert replay.records[-1].messages[-3:] == ["No Bloup: no effect\nDiscard the Action",
                                                "Action 4:\ndiscard it once its\neffect is done",
                                                "Action 4: apply\neffect by hand"]
    state = replay.session.state
    assert (state.phase, state.current, state.card) == ("report", "P3", "action#4")
    assert {"action#1", "action#4"} <= state.discard


def test_fl08_steps_run_decree_flouk_action():
    replay = run(script("select", turn("decree#2", "action#2", "bloup#2")), FL)
    steps = [m for m in replay.records[-1].messages if m.startswith(("Next:", "Flouks:"))]
    assert steps == ["Next: Decrees", "Flouks: each goes\ninto its player's\nvillage",
                     "Next: Actions"]
    state = replay.session.state
    assert dict(state.decrees)["P1"] == "decree#2" and dict(state.villages)["P3"] == ("bloup#2",)
    assert (state.phase, state.card) == ("report", "action#2")


def test_fl09_prerequisite_checked_after_earlier_effects():
    lines = ("select", turn("mouta#1", "parok#3", "faar#1"), turn("action#5", "action#3", "faar#2"))
    state = state_of(*lines)
    assert (state.phase, state.current, state.card) == ("report", "P2", "action#3")   # Z (w4) first
    replay = run(script(*lines, "tap parok#3", "choose village:P1", "select"), FL)
    assert "Parok\n-> P1's village" in replay.records[-2].messages
    state = replay.session.state
    assert "parok#3" in dict(state.villages)["P1"]
    assert (state.phase, state.current, state.card) == ("report", "P1", "action#5")


def test_fl10_end_of_round_deals_the_next():
    lines = ("select", turn("mouta#1", "faar#1", "bloup#1"), turn("mouta#2", "faar#2", "bloup#2"),
             turn("mouta#3", "faar#3", "bloup#3"))
    result = play(*lines)
    assert result["prompt"]["id"] == "deal"
    assert result["prompt"]["text"] == "Discard last card.\nDeal 4 each. Keep 2,\n1 left + 1 right.\nSELECT"
    assert result["details"]["discard_count"] == 3 and result["details"]["hands"]["P1"] == 0
    result = play(*lines, "select")
    assert result["details"]["hands"] == {"P1": 4, "P2": 4, "P3": 4}
    assert (result["details"]["round"], result["details"]["turn"]) == (2, 1)
    assert result["details"]["pile"] == 76 and result["details"]["lead"] == "P2"


def test_fl11_empty_hand_answers_no_card():
    lines = ("select", turn("mouta#1", "faar#1", "bloup#1"), turn("action#2", "faar#2", "bloup#2"),
             "choose face_down", "choose hand:P2", "choose discard",
             "choose face_down", "choose hand:P2", "choose discard", "select")
    assert play(*lines)["details"]["hands"] == {"P1": 2, "P2": 0, "P3": 2}
    result = play(*lines, "tap mouta#2", "choose no_card", "tap bloup#3")
    assert not result["rejected"]
    assert result["details"]["villages"] == {"P1": ["mouta#1", "mouta#2"], "P2": ["faar#1", "faar#2"],
                                             "P3": ["bloup#1", "bloup#2", "bloup#3"]}
    assert result["prompt"]["id"] == "deal"


def test_fl11_a_card_from_an_empty_hand_counts_as_drawn():
    lines = ("select", turn("mouta#1", "faar#1", "bloup#1"), turn("action#2", "faar#2", "bloup#2"),
             "choose face_down", "choose hand:P2", "choose discard",
             "choose face_down", "choose hand:P2", "choose discard", "select", "tap mouta#2")
    replay = run(script(*lines, "tap faar#3"), FL)
    assert replay.records[-1].messages == ["P2 held no card?\nCounted as drawn"]
    assert (replay.session.state.pile, replay.session.state.current) == (87, "P3")


def test_fl11_no_card_while_holding_cards_asks_first():
    sure = play("select", "tap mouta#1", "choose no_card")
    assert sure["prompt"] == {"id": "no_card_sure", "options": [],
                              "text": "Sure? P2 should\nhold 4. SELECT=yes\nBACK=no"}
    back = play("select", "tap mouta#1", "choose no_card", "back")
    assert back["prompt"]["id"] == "reveal" and back["details"]["current"] == "P2"
    yes = play("select", "tap mouta#1", "choose no_card", "select")
    assert yes["details"]["hands"]["P2"] == 0 and yes["details"]["current"] == "P3"


FL12 = ("select", turn("bloup#1", "mouta#1", "faar#1"),
        turn("faar#2", "chief_mouta#1", "faar#3"), "select",       # P2's Chief: power by hand
        turn("faar#4", "napil#1", "faar#5"),
        "select", turn("mouta#2", "napil#2", "decree#2"), turn("decree#1", "parok#1", SURE),
        turn(SURE, SURE, None))


def test_fl12_final_scoring_and_co_winners():
    before = play(*FL12, *quiet_rounds(6), "select")
    assert before["prompt"]["id"] == "decree_adjust" and before["details"]["current"] == "P3"
    assert before["prompt"]["text"] == "P3: base pop 3\nApply your Decree:\nUP/DOWN = 3\nSELECT"
    assert before["prompt"]["options"] == ["plus", "minus"]
    result = play(*FL12, *quiet_rounds(6), "select", "choose plus", "select")
    assert scores(result) == {"P1": 5, "P2": 5, "P3": 4}
    assert result["over"] and result["winners"] == ["P1", "P2"]
    assert result["prompt"]["text"] == "Largest village:\nP1, P2 (5)"


def test_fl13_chief_under_a_decree():
    lines = ("select", turn("bloup#1", "mouta#1", "faar#1"), turn("chief_bloup#1", "mouta#2", "faar#2"),
             "select", turn("decree#1", "mouta#3", "faar#3"))
    assert scores(play(*lines))["P1"] == 4
    assert scores(play(*lines, options=("decree_applies_to_chiefs=false",)))["P1"] == 3


def test_fl14_invalid_taps_leave_state_and_prompt_unchanged():
    lines = ("select", turn("mouta#1", "chief_bloup#1", "faar#1"), "tap mouta#2")
    state = state_of(*lines)
    foreign = "7#3" if any(s.deck == "pirates" for s in engine.all_specs()) else "clam#1"
    expected = [("mouta#1", "E_IN_PLAY", "In P1's village"), ("mouta#2", "E_SAME_CARD", "Same card twice"),
                (foreign, "E_WRONG_GAME", None), ("chief_bloup#1", "E_OUT_OF_PLAY", "Card is out of play"),
                ("04A1B2C3", "E_UNKNOWN_CARD", "Unknown card")]
    before, prompt = dumps(state), SPEC.prompt(state)
    for card, code, message in expected:
        refused = step(SPEC, state, Tap(card))
        assert refused.code == code and (message is None or refused.message == message)
        assert dumps(state) == before and SPEC.prompt(state) == prompt
    result = play(*lines, *[f"tap {card}" for card, _, _ in expected])
    assert [r["code"] for r in result["rejected"]] == [code for _, code, _ in expected]
    assert result["prompt"]["text"] == "P2: tap your card"


def test_fl15_equal_white_numbers_go_by_seat_from_the_lead():
    lines = ("select", turn("bloup#1", "mouta#1", "bloup#2"), turn("faar#1", "mouta#2", "faar#2"),
             turn("faar#3", "mouta#3", "faar#4"), "select", turn("action#1", "mouta#4", "action#4"))
    state = state_of(*lines)
    assert (state.round, state.current, state.card) == (2, "P3", "action#4")
    assert state_of(*lines, "select").current == "P1"


def test_cards_are_conserved_along_a_game():
    replay = run(script(*FL12, *quiet_rounds(6), "select", "choose plus", "select"), FL)
    session = replay.session
    assert session.state.phase == "over"
    while session.can_undo():
        assert conserved(session.state) == DECK_SIZE and not SPEC.invariants(session.state)
        session.undo()
