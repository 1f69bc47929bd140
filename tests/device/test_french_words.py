"""The French screens say what the English ones say, in French a player reads without a
second look: the Shrimps' peek reminder and the last snaps, read off the frames."""
from __future__ import annotations

from device.ui.prompt_timer import PromptTimer

from .table import SimTable
from .test_sim_tamalou import UNTIL_LAST_SNAPS


def bodies(table: SimTable) -> list[str]:
    """Every frame's body lines, one string a frame."""
    return ["\n".join(screen.lines) for screen in table.screens]


def test_the_peek_reminder_names_the_card_bob_may_not_flip(tmp_path):
    table = SimTable(tmp_path, "fr").start("palourde", "Ann,Bob,Cy", "Ann")
    table.run("tap shrimp#1\ntap shrimp#2\nwait 3\npress select")
    # Bob's turn: flip two cards, but not the one Ann looked at
    assert table.screen.lines[-1] == "Pas celle vue par Ann", table.screen
    assert not any("Pas la vue" in body for body in bodies(table))


def test_the_last_snaps_are_a_last_chance_to_discard_a_card_of_the_same_value(tmp_path):
    table = SimTable(tmp_path, "fr")
    table.app.attach(PromptTimer())
    table.start("tamalou", "P1,P2,P3", "P2").run(UNTIL_LAST_SNAPS)
    seen = bodies(table)
    told = next(body for body in seen if body.startswith("Derniers tours finis"))
    assert told.split("\n") == ["Derniers tours finis", "Dernière chance de",
                                "défausser une carte", "de même valeur"]
    assert table.screen.lines[:2] == ("Une de même valeur\xa0?", "Passe-la, puis SELECT"), \
        table.screen
    assert not any("Dernières défausses" in body for body in seen)
