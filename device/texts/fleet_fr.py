"""Textes français des écrans du réseau de tables : paquets et cartes du personnel partagés."""
from engine.text.fr_typeset import typeset

TEXT = typeset({
    "fleet.header": "PARTAGE",
    "fleet.offer_deck": "Nouveau paquet {deck} ({n} cartes) de {table} : passe une carte du "
                        "personnel pour l'importer",
    "fleet.offer_staff": "{n} cartes du personnel de {table} : {names}. Passe une carte du "
                         "personnel pour les importer",
    "fleet.not_now": "BACK : pas maintenant",
    "fleet.staff_needed": "Passe une carte du\npersonnel pour\nimporter",
    "fleet.deck_imported": "Paquet {deck}\nimporté",
    "fleet.staff_imported": "{n} cartes du\npersonnel importées",
    "fleet.import_failed": "Pas importé :\n{why}",
    "fleet.refused": "Réseau refusé",
    "fleet.offline": "Réseau hors ligne",
    "fleet.offline_why": "Réseau hors ligne :\n{why}",
    "fleet.staff_enrolled": "Carte du personnel\n{label}",
})
