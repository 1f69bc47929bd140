"""How the games look on the screen (GameSpec.look): header names, badges, setup steps.
Lines of 21 characters at most."""
from ..core.text import plural

TEXT = {
    # asked by the setup of games that ask who starts
    "ui.first_player": "Who starts?",
    # Palourde
    "ui.name.palourde": "PALOURDE",
    "ui.badge.tide": "Tide {n}/3",
    # L'Auberge des pirates
    "ui.name.auberge": "AUBERGE",
    "ui.deal.auberge": "Shuffle 55, deal 3\neach. SELECT",
    # A tribord!
    "ui.button_holder": "Who takes the Button?",
    "ui.name.tribord": "A TRIBORD!",
    "ui.deal.tribord": plural("Give {start_tokens} token\neach. SELECT", "Give {start_tokens} tokens\neach. SELECT",
                              "start_tokens"),
    "ui.badge.pot": "Pot {pot} R{round}",
    # Tamalou
    "ui.name.tamalou": "TAMALOU",
    "ui.deal.tamalou": "Shuffle, deal 4 each\nface down as 2x2;\npeek at your 2 near\ncards. SELECT",
    "ui.badge.reveal": "Reveal {i}/{n}",
    "ui.badge.round": "R{round}",
    # Flouk
    "ui.name.flouk": "FLOUK",
    "ui.deal.flouk": "Shuffle all 100\ncards into one pile.\nSELECT",
    "ui.badge.round_turn": "R{round} T{turn}",
    "ui.badge.round_turn_step": "R{round} T{turn} {step}",
}
