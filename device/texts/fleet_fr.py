"""Textes français des écrans du réseau de tables : paquets et cartes du personnel partagés."""
from engine.core.catalog import plural
from engine.text.fr_typeset import typeset

TEXT = typeset({
    "fleet.header": "PARTAGE",
    "fleet.offer_deck": plural("Nouveau paquet {deck} ({n} carte) de {table} : passe une carte du "
                              "personnel pour l'importer",
                              "Nouveau paquet {deck} ({n} cartes) de {table} : passe une carte du "
                              "personnel pour l'importer"),
    "fleet.offer_staff": plural("{n} carte du personnel de {table} : {names}. Passe une carte du "
                               "personnel pour l'importer",
                               "{n} cartes du personnel de {table} : {names}. Passe une carte du "
                               "personnel pour les importer"),
    "fleet.not_now": "BACK : pas maintenant",
    "fleet.staff_needed": "Passe une carte du\npersonnel pour\nimporter",
    "fleet.deck_imported": "Paquet {deck}\nimporté",
    "fleet.staff_imported": plural("{n} carte du\npersonnel importée", "{n} cartes du\npersonnel importées"),
    "fleet.import_failed": "Pas importé :\n{why}",
    "fleet.refused": "Réseau refusé",
    "fleet.offline": "Réseau hors ligne",
    "fleet.offline_why": "Réseau hors ligne :\n{why}",
    "fleet.staff_enrolled": "Carte du personnel\n{label}",
    # le tableau du café sur un écran mural (device/fleet/dashboard/page.py) : la page
    # remplit {n} et les autres
    "dash.title": "Tables du café",
    "dash.tables": plural("{n} table", "{n} tables"),
    "dash.online": "{n} en ligne",
    "dash.playing": "{n} en jeu",
    "dash.offline": "{n} hors ligne",
    "dash.activity.playing": "en jeu",
    "dash.activity.over": "partie finie",
    "dash.activity.idle": "libre",
    "dash.activity.attract": "délaissée",
    "dash.activity.offline": "hors ligne",
    "dash.activity.unknown": "sans nouvelles",
    "dash.no_game": "Pas de partie",
    "dash.at_table": "à table depuis {time}",
    "dash.minutes": "{n} min",
    "dash.hours": "{h} h {m}",
    "dash.offline_since": "hors ligne depuis {time}",
    "dash.missed": plural("{n} événement perdu", "{n} événements perdus"),
    "dash.finished": "Finies aujourd'hui",
    "dash.none_finished": "Aucune partie finie",
    "dash.no_winner": "aucun",
    "dash.broker_down": "Plus de nouvelles du\nserveur MQTT depuis\n{time} : l'écran\npeut dater",
    "dash.unavailable": "Indisponible :\n{why}",
    "dash.waiting": "En attente du\nserveur MQTT",
    "dash.leaderboard": "Victoires du jour",
    "dash.wins": plural("{n} victoire", "{n} victoires"),
    "fleet.staff_revoked": "Carte du personnel\n{label}\nretirée par\nle café",
    "fleet.claim_header": "CARTE JOUEUR",
    "fleet.claim_tap": "Passe la carte pour {name}",
    "fleet.claim_cancel": "BACK : annuler",
    "fleet.claim_known": "Carte déjà connue :\npasses-en une neuve",
    "fleet.claim_staff": "Une carte du\npersonnel n'est pas\nune carte joueur",
    "fleet.claim_sent": "Carte envoyée au\ncafé pour {name}",
    "fleet.claim_expired": "Carte pour {name} :\ntemps écoulé",
})
