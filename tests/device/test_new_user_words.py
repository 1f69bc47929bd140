"""What a new player reads off the frames, in both languages, where a word was missing or
a line wrapped: each text read whole, its pages put together."""
from __future__ import annotations

from device.ui.layout import layout

from .table import SimTable


def test_the_french_peek_reminder_wraps_whole_under_the_prompt(tmp_path):
    """"Pas celle vue par Alice" is 23 characters: two whole lines under "retourne 2 cartes",
    the card it speaks of."""
    table = SimTable(tmp_path, "fr").start("palourde", "Alice,Bruno,Cyril", "Alice")
    table.run("tap shrimp#1\ntap shrimp#2\npress select")
    assert table.screen.lines == ("Bruno\u00a0: retourne", "2 cartes, passe-les",
                                  "Pas celle vue par", "Alice")
    assert not layout(table.screen).cuts



def test_up_before_any_instruction_does_not_contradict_the_prompt(tmp_path):
    """UP on L'Auberge's first prompt, which asks for a card face up: no earlier instruction
    to read again, said without claiming there is nothing to do with the cards."""
    table = SimTable(tmp_path, "fr").start("auberge", "Maximilian,Bartholome,Christophe",
                                           dealt=False)
    table.run("press select")
    asked = " ".join(table.screen.lines)
    assert "pose 1 carte" in asked
    table.run("press up")
    assert table.screen.lines == ("Aucune consigne", "à relire")
    table.run("press up")                                  # UP only clears the message
    assert " ".join(table.screen.lines) == asked


def test_a_message_of_two_pages_keeps_its_lines_whole_beside_the_mark(tmp_path):
    """Palourde's Clam + Rake for Christophe: two pages, whose lines take the 20 columns the
    mark leaves ("Clam + Rake! +1 -> 1" whole), where they broke at 19 ("+1 ->" / "1")."""
    table = SimTable(tmp_path).start("palourde", "Maximilian,Bartholome,Christophe",
                                     "Christophe")
    table.run("tap rake#1\ntap clam#3")
    first = table.text.splitlines()[1:]
    assert first == ["  Clam + Rake! +1 -> 1", "  Clam to your Basket,", "  discard the Rake v"]
    assert not layout(table.screen).cuts
    table.run("press down")
    assert table.screen.lines == ("Christophe: play", "again")
