"""English texts of the fleet's screens: shared deck and staff offers, the broker's refusal."""
from engine.core.text import add_catalog

from . import fleet_fr

TEXT = {
    "fleet.header": "SHARED",
    "fleet.offer_deck": "New deck {deck} ({n} cards) from {table}: tap a staff card to import",
    "fleet.offer_staff": "{n} staff cards from {table}: {names}. Tap a staff card to import",
    "fleet.not_now": "BACK: not now",
    "fleet.staff_needed": "Tap a staff card\nto import",
    "fleet.deck_imported": "Deck {deck}\nimported",
    "fleet.staff_imported": "{n} staff cards\nimported",
    "fleet.import_failed": "Not imported:\n{why}",
    "fleet.refused": "Fleet refused",
    "fleet.offline": "Fleet offline",
    "fleet.offline_why": "Fleet offline:\n{why}",
    "fleet.staff_enrolled": "Staff card\n{label}",
}

add_catalog("en", TEXT)
add_catalog("fr", fleet_fr.TEXT)
