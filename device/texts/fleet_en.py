"""English texts of the fleet's screens: shared deck and staff offers, the broker's refusal."""
from engine.core.text import add_catalog, plural

from . import fleet_fr

TEXT = {
    "fleet.header": "SHARED",
    "fleet.offer_deck": plural("New deck {deck} ({n} card) from {table}: tap a staff card to import",
                              "New deck {deck} ({n} cards) from {table}: tap a staff card to import"),
    "fleet.offer_staff": plural("{n} staff card from {table}: {names}. Tap a staff card to import",
                               "{n} staff cards from {table}: {names}. Tap a staff card to import"),
    "fleet.not_now": "BACK: not now",
    "fleet.staff_needed": "Tap a staff card\nto import",
    "fleet.deck_imported": "Deck {deck}\nimported",
    "fleet.staff_imported": plural("{n} staff card\nimported", "{n} staff cards\nimported"),
    "fleet.import_failed": "Not imported:\n{why}",
    "fleet.refused": "Fleet refused",
    "fleet.offline": "Fleet offline",
    "fleet.staff_enrolled": "Staff card\n{label}",
}

add_catalog("en", TEXT)
add_catalog("fr", fleet_fr.TEXT)
