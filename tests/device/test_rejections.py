"""Every refusal of the rules the device can meet: shown on the screen, the state untouched.

Each case plays up to a prompt, then makes one refused input. The message must be on the
screen, the session's state (in its canonical form) must not have changed, and the message
must clear after 2 s of virtual time or at the first button, which does nothing else.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from device.decks.registry import DeckRegistry
from device.plugin import Plugin
from engine import Rejected

from .table import SimTable

PALOURDE = ("palourde", "Ann,Bob,Cy")
# The device answers these itself, before the engine: a tag of no deck or of another deck of
# the game, a tap on the result.
DEVICE_ANSWERS = {"E_UNKNOWN_CARD", "E_WRONG_DECK", "E_GAME_OVER"}


class Refusals(Plugin):
    """The codes of the engine's refusals, as the app sees them."""

    def __init__(self) -> None:
        self.codes: list[str] = []

    def on_outcome(self, app, outcome) -> None:
        if isinstance(outcome.answer, Rejected):
            self.codes.append(outcome.answer.code)


@dataclass(frozen=True)
class Case:
    game: tuple[str, ...]
    before: str               # simulator lines up to the prompt (messages waited out or,
                              # where they ask the table to move cards, cleared by BACK)
    refused: str              # the one refused input
    shows: str                # what the screen says, lines joined by spaces


CASES = {
    "E_UNKNOWN_CARD": Case(PALOURDE, "", "tap uid:0A0B0C0D", "Unknown card"),
    "E_WRONG_GAME": Case(PALOURDE, "", "tap 7C", "That's a Tamalou card"),
    "E_NOT_EXPECTED": Case(("tribord", "P1,P2", "P1"), "tap 4#1\ntap 9#1\npress back", "tap 5#1",
                           "Choose Draw or Block"),
    "E_SAME_CARD": Case(PALOURDE, "tap clam#9\nwait 2", "tap clam#9",
                        "Same card twice Flip another card"),
    "E_OUT_OF_PLAY": Case(PALOURDE, "tap clam#1\ntap clam#2\npress back", "tap clam#1",
                          "Card is out of play"),
    "E_IN_PLAY": Case(PALOURDE, "tap high_tide#1\npress back", "tap high_tide#1",
                      "High Tide is face up"),
    "E_ILLEGAL": Case(("auberge", "P1,P2"), "tap 5#1\ntap 3#1\nwait 2\npress select\npress select",
                      "tap 5#2", "Pairs with P1's 5! Take it back"),
    "E_NOT_ELIGIBLE": Case(PALOURDE, "tap clam#1\ntap clam#2\npress back\ntap crab#1\ntap crab#2\n"
                                     "press back",
                           "tap basket#2", "Can't rob yourself"),
    "E_GAME_OVER": Case(PALOURDE, "tap high_tide#1\ntap high_tide#2\ntap high_tide#3\nwait 4",
                        "tap clam#1", "Game over – SELECT"),
}


def refuse(table: SimTable, code: str, case: Case, clear: str) -> None:
    refusals = Refusals()
    table.app.attach(refusals)
    before_screen, before_state = table.screen, table.state()
    table.run(case.refused)
    assert refusals.codes == ([] if code in DEVICE_ANSWERS else [code])
    assert " ".join(table.screen.lines) == case.shows
    assert table.state() == before_state
    table.run(clear)
    assert table.screen == before_screen
    assert table.state() == before_state
    table.app.detach(refusals)


@pytest.mark.parametrize("code", CASES)
def test_refusal_is_shown_and_changes_nothing(tmp_path, code):
    case = CASES[code]
    table = SimTable(tmp_path).start(*case.game).run(case.before)
    refuse(table, code, case, "wait 2")
    table.run("wait 2")                       # the same card again is a new tap, not a bounce
    refuse(table, code, case, "press down")


def test_a_card_of_another_deck_of_the_game(tmp_path):
    """E_WRONG_DECK: a second Palourde deck is registered; the game is played with the first."""
    DeckRegistry(tmp_path).add_tag("blue", "palourde", "0A0B0C0E", "clam#1")
    table = SimTable(tmp_path).run("press select")
    assert table.screen.lines == ("Which deck?", "sim-palourde", "blue")
    table.run("""
        press select
        press select
        tap basket#1
        tap basket#2
        press select
        tap basket#1
        press select
        """)
    case = Case(PALOURDE, "", "tap uid:0A0B0C0E", "Card from other deck")
    refuse(table, "E_WRONG_DECK", case, "wait 2")
    table.run("wait 2")
    refuse(table, "E_WRONG_DECK", case, "press down")
