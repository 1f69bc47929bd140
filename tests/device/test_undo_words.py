"""Hold BACK asks "Undo: Ann played 7 of clubs?": the last input in words, never a card id."""
from __future__ import annotations

import pytest

from .table import SimTable

AUBERGE_ACCUSED = ("tap 5#1\ntap 3#1\ntap 8#1\nwait 2\npress down\npress down\npress select\n"
                   "press down\npress select")          # Bob starts (the 3) and accuses Cy
FLOUK_ASKED = ("press select\ntap mouta#1\ntap faar#1\ntap bloup#1\nwait 2\ntap mouta#2\n"
               "tap faar#2\ntap action#12\nwait 4\npress back")
SNAP_BY_BOB = "tap 7C\nwait 2\ntap 7H\nwait 2\npress down\npress select"

# game, the inputs (BACK clears a message that asks the table to move cards), the card id or
# option key that must not show, and the words that must
CASES = [
    ("tamalou", "tap 7C", "7C", {"en": "Undo: Ann played\n7 of clubs?",
                                 "fr": "Annuler\u00a0: Ann a\njoué 7 de trèfle\u00a0?"}),
    ("tamalou", "tap 7C\nwait 2\npress select", "draw", {"en": "Undo: Ann chose\nDraw?",
                                                         "fr": "Ann a\nchoisi\nPiocher\u00a0?"}),
    ("palourde", "tap clam#1", "clam#1", {"en": "Undo: Ann played\nClam?",
                                          "fr": "Ann a\njoué Palourde\u00a0?"}),
    ("auberge", "press select\ntap 5#1", "5#1", {"en": "Undo: Ann played\nthe 5?",
                                                "fr": "Ann a\njoué le 5\u00a0?"}),
    ("flouk", "press select\ntap decree#2", "decree#2", {"en": "Undo: Ann played\nDecree 2?",
                                                         "fr": "Ann a\njoué Décret 2\u00a0?"}),
    ("flouk", "press select\ntap chief_mouta#1", "chief_mouta", {"en": "played\nMouta Chief?",
                                                                 "fr": "joué Chef Mouta\u00a0?"}),
    ("flouk", "press select", "select", {"en": "Undo SELECT?", "fr": "Annuler SELECT\u00a0?"}),
    # the accused shows a hidden hand: their taps, never their cards' values
    ("auberge", AUBERGE_ACCUSED + "\ntap 6#1", "6", {"en": "Undo: a card of\nCy's hand?",
                                                  "fr": "une carte\nmontrée par Cy\u00a0?"}),
    ("auberge", AUBERGE_ACCUSED + "\ntap 6#1\ntap 6#2\npress select\npress back\npress back",
     "Bob ",
     {"en": "Undo: Cy's hand\nshown?", "fr": "Annuler\u00a0: Cy montre\nsa main\u00a0?"}),
    # what is printed on a card is the table's answer, not a choice of the card's owner
    ("flouk", FLOUK_ASKED + "\npress down\npress down\npress down\npress select"
     "\npress back\npress back\npress back", "chose",
     {"en": "Undo: Action 12:\nBloup?", "fr": "Annuler\u00a0: Action 12\u00a0:\nBloup\u00a0?"}),
    # a snap is nobody's turn: the snap's own words, then who snapped it (not "Ann chose Bob")
    ("tamalou", "tap 7C\nwait 2\ntap 7H", "7H",
     {"en": "Undo: the snap of\n7 of hearts?", "fr": "Annuler\u00a0: défausse de\n7 de cœur\u00a0?"}),
    ("tamalou", SNAP_BY_BOB, "Ann ", {"en": "Undo: Bob snapped\n7 of hearts?",
                                     "fr": "Annuler\u00a0: Bob a\ndéfaussé 7 de cœur\u00a0?"}),
    ("tamalou", "tap 7C\nwait 2\npress down\npress down\npress down\npress select\n"
                "press down\npress down\npress select\npress back", "Ann ",
     {"en": "Undo: Cy's penalty\ncard?", "fr": "Annuler\u00a0: la pénalité\nde Cy\u00a0?"}),
]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game,lines,hidden,words", CASES, ids=lambda c: str(c)[:20])
def test_the_undo_question_names_the_input_in_words(tmp_path, language, game, lines, hidden,
                                                    words):
    table = SimTable(tmp_path, language).start(game, "Ann,Bob,Cy", "Ann")
    table.run(lines + "\nwait 2")
    inputs = len(table.app.session.events)
    table.run("hold back")
    body = "\n".join(table.screen.lines)
    assert words[language] in body
    assert hidden not in body
    table.run("press select")
    assert len(table.app.session.events) == inputs - 1
