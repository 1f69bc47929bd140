"""Textes français des écrans du réseau de tables : paquets et cartes du personnel partagés."""
from engine.core.text import plural
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
    "fleet.staff_enrolled": "Carte du personnel\n{label}",
})
