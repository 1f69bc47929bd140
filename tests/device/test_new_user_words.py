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


def test_a_score_line_with_room_names_the_player_whole(tmp_path):
    """Tamalou's reveal after Maximilian's square: "Maximilian 5" under Bartholome's
    instruction, where the line cut the name to "Maximili" with room to spare."""
    from .test_sim_tamalou import PLAY
    table = SimTable(tmp_path, "fr").start("tamalou", "Maximilian,Bartholome,Christophe",
                                           "Bartholome", dealt=False)
    lines = PLAY.strip().splitlines()
    for line in lines[:lines.index("tap 3S")]:
        table.run(line)
    assert table.screen.header_right == "Carré 2/3"
    assert table.screen.lines[-1] == "Maximilian 5"


def test_french_prompts_with_long_names_break_between_words_that_go_together(tmp_path):
    """No "ou" or "devant" left alone on a line with ten-letter names; Tamalou's top card is
    "la défausse", not an order to discard ("Bartholome, défausse :")."""
    names = "Maximilian,Bartholome,Christophe"
    tribord = SimTable(tmp_path / "t", "fr").start("tribord", names, "Maximilian",
                                                  "start_tokens=3")
    tribord.run("tap 4#1\ntap 9#1\nwait 2\npress back")
    assert tribord.screen.lines[:2] == ("Maximilian\u00a0: Piocher", "ou Bloquer\u00a0? Pot 3")
    auberge = SimTable(tmp_path / "a", "fr").start("auberge", names, dealt=False)
    auberge.run("tap 5#1\ntap 3#1\ntap 8#1\nwait 2\npress select\npress select")
    assert auberge.screen.lines == ("Bartholome\u00a0: pose", "devant Maximilian une",
                                    "carte de ta main,", "passe-la")
    auberge.run("tap 4#1\nwait 2\npress down\npress select\npress down\npress select")
    assert auberge.screen.lines == ("Maximilian\u00a0: pioche", "sans regarder, pose",
                                    "devant Christophe,", "passe-la")
    tamalou = SimTable(tmp_path / "m", "fr").start("tamalou", names, "Bartholome", dealt=False)
    tamalou.run("tap 7C\nwait 2")
    assert " ".join(tamalou.screen.lines[:3]) == "Bartholome, la défausse\u00a0: 7 de trèfle"


def test_the_french_decree_shows_the_number_up_changes_with_long_names(tmp_path):
    """Flouk's Decree with ten-letter names: one page, so the number UP raises is on screen
    (the second page had it, and UP left the first page showing)."""
    from .test_sim_flouk import PLAY
    table = SimTable(tmp_path, "fr").start("flouk", "Maximilian,Bartholome,Christophe",
                                           dealt=False)
    lines = ["press select", *PLAY.strip().splitlines()]
    for line in lines[:len(lines) - lines[::-1].index("press up") - 2]:
        table.run(line)
    assert table.screen.lines == ("Bartholome\u00a0: pop. 1", "Applique ton Décret\u00a0:",
                                  "UP/DOWN = 1", "SELECT")
    table.run("press up")
    assert table.screen.lines[2] == "UP/DOWN = 2" and table.screen.more is None


def test_a_good_draw_says_the_blockers_are_out_of_the_round_only(tmp_path):
    """A tribord!: Bartholome blocked, Christophe's good draw puts him out of this round, not
    of the game, as the frame says in both languages."""
    said = {"en": "Good draw! Bartholome out this round",
            "fr": "Bien pioché\u00a0! Bartholome hors jeu cette manche"}
    for language, words in said.items():
        table = SimTable(tmp_path / language, language).start(
            "tribord", "Maximilian,Bartholome,Christophe", "Maximilian", "start_tokens=3")
        table.run("tap 4#1\ntap 9#1\nwait 2\npress back\npress select\ntap 2#1\nwait 2\n"
                  "press down\npress select\nwait 2\npress select\ntap 7#1")
        assert " ".join(table.screen.lines) == words
        assert not layout(table.screen).cuts
