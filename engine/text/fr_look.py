"""Textes de l'allure des jeux à l'écran (GameSpec.look) : nom d'en-tête, badge,
préparation. Lignes de 21 caractères au plus."""
from ..core.text import plural
from .fr_typeset import typeset

TEXT = typeset({
    # asked by the setup of games that ask who starts
    "ui.first_player": "Qui commence ?",
    # Palourde
    "ui.name.palourde": "PALOURDE",
    "ui.badge.tide": "Marée {n}/3",
    # L'Auberge des pirates
    "ui.name.auberge": "AUBERGE",
    "ui.deal.auberge": "Mélange les 55, donne\n3 à chacun. SELECT",
    # A tribord!
    "ui.button_holder": "Qui prend le Bouton ?",
    "ui.name.tribord": "À TRIBORD !",
    "ui.deal.tribord": plural("Donne {start_tokens} jeton à\nchacun. SELECT",
                              "Donne {start_tokens} jetons à\nchacun. SELECT", "start_tokens"),
    "ui.badge.pot": "Pot {pot} M{round}",
    # Tamalou
    "ui.name.tamalou": "TAMALOU",
    "ui.deal.tamalou": "Mélange, donne 4\ncachées en carré 2x2.\nRegarde tes 2 plus\nproches. SELECT",
    "ui.badge.reveal": "Carré {i}/{n}",
    "ui.badge.round": "M{round}",
    # Flouk
    "ui.name.flouk": "FLOUK",
    "ui.deal.flouk": "Mélange les 100\ncartes en une pioche.\nSELECT",
    "ui.badge.round_turn": "M{round} T{turn}",
    "ui.badge.round_turn_step": "M{round} T{turn} {step}",
})
