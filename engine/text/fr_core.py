"""Textes français communs à tous les jeux. Lignes de 21 caractères au plus."""
from .fr_typeset import typeset

TEXT = typeset({
    "core.game_over": "Partie finie – SELECT",
    "core.unknown_card": "Carte inconnue",
    "core.wrong_game": "Carte du jeu {deck}",
    "core.wrong_deck": "Pas de ce paquet",
    "core.use_buttons": "Utilise les boutons",
    "core.same_card": "Même carte deux fois",
    "core.out_of_play": "Carte hors jeu",
    "core.in_play": "Déjà sur la table",
    "core.nothing_to_undo": "Rien à annuler",
    "core.nothing_to_redo": "Rien à refaire",
    "core.undone": "Annulé",
    "core.name": "{name}",
    "core.not_a_choice": "Choix impossible ici",
    "core.no_winner": "Pas de gagnant",
    # a house rule that is on or off, in every game's menu
    "opt.on": "oui",
    "opt.off": "non",
    # asked by the setup of games that ask who starts
    "ui.first_player": "Qui commence ?",
})
