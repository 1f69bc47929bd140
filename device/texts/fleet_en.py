"""English texts of the fleet's screens: shared deck and staff offers, the broker's refusal."""
from engine.core.catalog import Template, add_catalog, plural

from . import fleet_fr

TEXT: dict[str, Template] = {
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
    "fleet.offline_why": "Fleet offline:\n{why}",
    "fleet.staff_enrolled": "Staff card\n{label}",
    # the dashboard on a wall screen (device/fleet/dashboard/page.py): {n} and the like are
    # filled in by the page
    "dash.title": "Café tables",
    "dash.tables": plural("{n} table", "{n} tables"),
    "dash.online": "{n} online",
    "dash.playing": "{n} playing",
    "dash.offline": "{n} offline",
    "dash.activity.playing": "playing",
    "dash.activity.over": "game over",
    "dash.activity.idle": "free",
    "dash.activity.attract": "left alone",
    "dash.activity.offline": "offline",
    "dash.activity.unknown": "no news",
    "dash.no_game": "No game",
    "dash.at_table": "at the table {time}",
    "dash.minutes": "{n} min",
    "dash.hours": "{h} h {m}",
    "dash.offline_since": "offline since {time}",
    "dash.missed": plural("{n} event missed", "{n} events missed"),
    "dash.finished": "Finished today",
    "dash.none_finished": "No game finished yet",
    "dash.no_winner": "none",
    "dash.broker_down": "No news from the\nbroker since {time}:\nwhat you see may be\nout of date",
    "dash.unavailable": "Not available:\n{why}",
    "dash.waiting": "Waiting for the\nbroker",
    "dash.leaderboard": "Wins today",
    "dash.wins": plural("{n} win", "{n} wins"),
    "fleet.staff_revoked": "Staff card\n{label}\ntaken back by\nthe café",
    # a player card given by a tap (device/fleet/claim_screen.py)
    "fleet.claim_header": "PLAYER CARD",
    "fleet.claim_tap": "Tap the card for {name}",
    "fleet.claim_cancel": "BACK: cancel",
    "fleet.claim_known": "That card is known:\ntap a new one",
    "fleet.claim_staff": "A staff card is no\nplayer card: tap\na new one",
    "fleet.claim_sent": "Card sent to the\ncafé for {name}",
    "fleet.claim_expired": "Card for {name}:\ntime is up",
}

add_catalog("en", TEXT)
add_catalog("fr", fleet_fr.TEXT)
