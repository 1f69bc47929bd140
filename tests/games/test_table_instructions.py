"""The screens say what to do with the physical cards and tokens wherever the rules do: each
moment is reached by a scripted game, and its message or prompt says it, in both languages."""
from __future__ import annotations

import pytest

from device.cli.replay import replay_text
from tests.support import report

from .test_flouk import FL, quiet_rounds, turn
from .test_flouk import script as flouk_script

PALOURDE = "game palourde\nplayers A B C\n"
TWO_CLAMS_FOR_A = "tap clam#1\ntap clam#2\n"                      # then B plays
A_AGAIN = TWO_CLAMS_FOR_A + "tap beach#1\ntap shell#1\ntap beach#2\ntap shell#2\n"
TRIBORD = "game tribord\nplayers P1 P2 P3\n"
ROUND_1 = ("tap 4#1\ntap 9#1\nchoose draw\ntap 2#1\nchoose block\nchoose draw\ntap 7#1\n"
           "choose block\nchoose draw\ntap 9#2\n")
AUBERGE = "game auberge\nplayers P1 P2 P3\n"
OPENING = "tap 5#1\ntap 3#1\ntap 8#1\n"                             # P2 starts: lowest card
TAMALOU = "game tamalou\nplayers P1 P2 P3\ntap 7C\n"

# (moment, script, data, {language: fragments the last input's messages or the prompt hold})
MOMENTS = [
    ("a turn: flip two cards and tap each", PALOURDE, None,
     {"en": ["A: flip 2 cards,\ntap each"], "fr": ["A\u00a0: retourne\n2 cartes, passe-les"]}),
    ("the second card: flip it and tap it", PALOURDE + "tap beach#1\n", None,
     {"en": ["A: flip 2nd\ncard, tap it"], "fr": ["A\u00a0: retourne\nla 2e, passe-la"]}),
    ("clam pair: both to the basket, who plays next", PALOURDE + TWO_CLAMS_FOR_A, None,
     {"en": ["Both to your Basket", "B plays next"],
      "fr": ["Les 2 dans ton Panier", "À B de jouer"]}),
    ("clam and rake: discard the rake, play again", PALOURDE + "tap rake#1\ntap clam#3\n", None,
     {"en": ["Clam to your Basket", "discard the Rake", "A: play again"],
      "fr": ["au\nPanier", "défausse le\nRâteau", "A rejoue"]}),
    ("High Tide: leave it face up, the turn passes", PALOURDE + "tap high_tide#1\n", None,
     {"en": ["A: leave it up", "B plays next"], "fr": ["A\u00a0: laisse-la\nvisible", "À B de jouer"]}),
    ("High Tide as the second card: turn the first back", PALOURDE + "tap shell#1\ntap high_tide#1\n",
     None, {"en": ["A: leave it up,\nturn the Shell back", "B plays next"],
            "fr": ["A\u00a0: laisse-la,\nretourne\u00a0: Coquillage", "À B de jouer"]}),
    ("Basket Overboard: discard the clams, play again",
     PALOURDE + A_AGAIN + "tap basket_overboard\n", None,
     {"en": ["Discard it and your\n2 clams", "A: play again"],
      "fr": ["Défausse-le et tes\n2 palourdes", "A\u00a0: rejoue"]}),
    ("Storm: discard it, shuffle, the High Tides stay up", PALOURDE + "tap storm_warning\n", None,
     {"en": ["Discard it", "shuffle the Beach", "High Tides stay up"],
      "fr": ["Défausse\nla carte", "mélange la\nPlage", "Marées hautes\nvisibles"]}),
    ("Storm under the option: the High Tides are shuffled in",
     PALOURDE + "option storm_resets_high_tides=true\ntap storm_warning\n", None,
     {"en": ["with the High Tides"], "fr": ["Plage et les Marées\nhautes"]}),
    ("Crab pair: discard the crabs", PALOURDE + TWO_CLAMS_FOR_A + "tap crab#1\ntap crab#2\n", None,
     {"en": ["B: discard both\nCrabs"], "fr": ["B\u00a0: défausse\nles Crabes"]}),
    ("a theft: take the clam from the basket, who plays next",
     PALOURDE + TWO_CLAMS_FOR_A + "tap crab#1\ntap crab#2\nchoose A\n", None,
     {"en": ["B: take 1 clam\nfrom A's Basket", "C plays next"],
      "fr": ["B\u00a0: prends 1\npalourde dans le\nPanier de A", "À C de jouer"]}),
    ("nobody to rob: discard the crabs, who plays next",
     PALOURDE + "tap crab#1\ntap crab#2\n", None,
     {"en": ["A: discard both\nCrabs", "B plays next"], "fr": ["A\u00a0: défausse\nles Crabes", "À B de jouer"]}),
    ("Bird: discard both", PALOURDE + "tap bird#1\ntap clam#1\n", None,
     {"en": ["A: discard both", "B plays next"], "fr": ["A\u00a0: défausse-les", "À B de jouer"]}),
    ("Shrimp pair: discard both, peek", PALOURDE + "tap shrimp#1\ntap shrimp#2\n", None,
     {"en": ["Discard both", "A: peek at 1 card", "B plays next"],
      "fr": ["Défausse-les", "1 carte en secret", "À B de jouer"]}),
    ("no match: turn both back, who plays next", PALOURDE + "tap beach#1\ntap shell#1\n", None,
     {"en": ["A: turn both back", "B plays next"], "fr": ["A\u00a0: retourne-les", "À B de jouer"]}),
    ("A tribord! round end: the centre, every player's tokens, the Button", TRIBORD + ROUND_1, None,
     {"en": ["discard the centre", "P1 takes 6", "Tokens: P1\u00a014, P2\u00a09, P3\u00a07",
             "P2 takes the\nButton"],
      "fr": ["défausse les cartes\ndu centre", "P1 prend 6", "Jetons\u00a0: P1\u00a014, P2\u00a09, P3\u00a07",
             "P2 prend le\nBouton"]}),
    ("A tribord! the ante goes into the pot", TRIBORD + "tap 4#1\ntap 9#1\n", None,
     {"en": ["Everyone puts 1 token\nin the pot"], "fr": ["Chacun met 1 jeton\nau pot"]}),
    ("A tribord! a failed draw: discard the drawn card", TRIBORD + ROUND_1, None,
     {"en": ["Discard\nthe drawn card"], "fr": ["Défausse la carte"]}),
    ("A tribord! a paired start: discard both", TRIBORD + "tap 6#1\ntap 6#2\n", None,
     {"en": ["Pair! Discard both"], "fr": ["Défausse-les"]}),
    ("L'Auberge: a draw, then who plays next", AUBERGE + OPENING + "choose draw\n", None,
     {"en": ["P2: draw 1,\nkeep it hidden", "P3 plays next"],
      "fr": ["P2\u00a0: pioche 1,\ngarde-la cachée", "À P3 de jouer"]}),
    ("L'Auberge: out, discard all, who plays next",
     AUBERGE + OPENING + "choose accuse\nchoose P3\ntap 9#1\ntap 7#1\nselect\n", None,
     {"en": ["P2: discard all\nyour cards", "P3 plays next"],
      "fr": ["P2\u00a0: défausse\ntoutes tes cartes", "À P3 de jouer"]}),
    ("Tamalou: keep the drawn card, discard the one it replaces",
     TAMALOU + "choose draw\nchoose keep\n", None,
     {"en": ["discard\nthe one it replaces"], "fr": ["défausse\net passe la carte"]}),
    ("Tamalou: take the discard, discard the one it replaces", TAMALOU + "choose take_discard\n",
     None, {"en": ["discard the one it\nreplaces"], "fr": ["défausse et\npasse la remplacée"]}),
    ("L'Auberge: an attack card that pairs goes back to the hand",
     AUBERGE + OPENING + "choose attack\nchoose P1\ntap 5#2\n", None,
     {"en": ["Take it back"], "fr": ["Reprends-la"]}),
    ("Tamalou: the opening discard", "game tamalou\nplayers P1 P2 P3\n", None,
     {"en": ["Turn the top pile\ncard onto the\ndiscard"],
      "fr": ["Défausse la 1re carte\nde la pioche"]}),
    ("Tamalou: a wrong snap goes back, with a penalty card",
     TAMALOU + "tap 4H\nchoose P3\n", None,
     {"en": ["P3: wrong! Take\nit back + draw 1\npenalty card"],
      "fr": ["P3\u00a0: raté\u00a0!\nReprends-la\n+ 1 carte pénalité"]}),
    ("Tamalou: a penalty card", TAMALOU + "choose penalty\nchoose P2\n", None,
     {"en": ["P2 draws 1\npenalty card"], "fr": ["P2 pioche 1\ncarte de pénalité"]}),
    ("Tamalou: the reveal, every card flipped and tapped",
     TAMALOU + "choose tamalou\nchoose draw\nchoose play\ntap 5H\nchoose draw\nchoose play\n"
               "tap 5D\nselect\n", None,
     {"en": ["P1: flip all your\ncards, tap each"],
      "fr": ["P1\u00a0: retourne et\npasse tes cartes"]}),
    ("Flouk: the round's end, the last card discarded and the next deal",
     flouk_script(*quiet_rounds(1)), FL,
     {"en": ["Discard last card.\nDeal 4 each. Keep 2"],
      "fr": ["Dernière carte à la\ndéfausse. Donne 4"]}),
    ("Flouk: the revealed Flouks go into their players' villages",
     flouk_script("select", turn("mouta#1", "faar#1", "bloup#1")), FL,
     {"en": ["Flouks: each goes\ninto its player's\nvillage"],
      "fr": ["Flouks\u00a0: chacun va\ndans le village de\nson joueur"]}),
    ("Flouk: a failed welcome, discard the Chief",
     flouk_script("select", turn("chief_bloup#1", "faar#1", "bloup#1")), FL,
     {"en": ["Welcome failed:\ndiscard it"], "fr": ["Accueil raté\u00a0:\ndéfausse-le"]}),
    ("Flouk: a new Decree, discard the old one",
     flouk_script("select", turn("mouta#1", "faar#1", "decree#1"),
                  turn("mouta#2", "faar#2", "decree#2")), FL,
     {"en": ["Discard the old\nDecree 1"], "fr": ["Défausse l'ancien\nDécret 1"]}),
    ("Flouk: an Action with no effect goes to the discard",
     flouk_script("select", turn("mouta#1", "faar#1", "bloup#1"),
                  turn("mouta#2", "action#1", "action#4")), FL,
     {"en": ["Discard the Action", "Action 4:\ndiscard it once its\neffect is done"],
      "fr": ["Défausse\nl'Action", "Action 4\u00a0:\ndéfausse-la une fois"]}),
]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("moment,text,data,said", MOMENTS, ids=[m[0] for m in MOMENTS])
def test_the_screen_says_what_to_do_with_the_cards(moment, text, data, said, language):
    replay = replay_text(text, data, language)
    assert not [r.text for r in replay.records[:-1] if r.verdict == "rejected"]
    last = replay.records[-1].messages if replay.records else []
    shown = "\n".join(last + [report(replay)["prompt"]["text"]])
    missing = [fragment for fragment in said[language] if fragment not in shown]
    assert not missing, shown
