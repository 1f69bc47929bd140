"""English texts of the table's page (device/web/): labels, buttons, the setup, each game in one
line, its API's refusals. The page is served in the table's language with these."""
from engine.core.catalog import Template, add_catalog, plural

from . import web_fr

TEXT: dict[str, Template] = {
    "web.title": "Tabletop Companion",
    "web.join_title": "Join the table",
    "web.join_hint": "Type the code the table's screen shows.",
    "web.code_label": "join code",
    "web.join": "Join",
    "web.screen_alt": "the table's screen",
    "web.buttons_hint": "Hold BACK to undo, SELECT for the menu. Cards are tapped on the reader.",
    "web.game": "Game",
    "web.house_rules": "House rules",
    "web.players": "Players",
    "web.name_label": "a player's name",
    "web.name_placeholder": "a name",
    "web.add": "Add",
    "web.roster_hint": "The café's players: tap a name to seat it.",
    "web.who_starts": "Who starts?",
    "web.start": "Start",
    "web.table_asks": "The table asks",
    "web.on_screen": "On the screen",
    "web.last_instructions": "Last instructions",
    "web.players_range": "{low} to {high} players",
    "web.seat_range": "({low} to {high})",
    "web.seat_up": "{name} up",
    "web.seat_down": "{name} down",
    "web.seat_out": "{name} out",
    "web.not_added": "not added",
    "web.not_taken": "not taken",
    "web.no_answer": "no answer from the table",
    "web.join_first": "join first: the code is on the table's screen",
    "web.too_many_codes": "too many wrong codes: wait a minute",
    "web.wrong_code": "wrong code: the table's screen shows it",
    "web.no_frame": "no frame yet",
    "web.not_ready": "the table is not ready",
    "web.body_type": "the body is JSON (Content-Type: application/json)",
    "web.body_size": plural("a body has at most {n} byte", "a body has at most {n} bytes"),
    "web.body_slow": "the body took too long",
    "web.body_not_json": "the body is not JSON",
    "web.body_shape": "the body is {shape}",
    # Each game in one line, as docs/rules.md tells how it is won.
    "web.pitch.palourde": "Flip two Beach cards a turn, pair the clams: the most clams take the "
                          "Golden Clam.",
    "web.pitch.auberge": "Attack, challenge or accuse the other pirates: the last pirate in wins.",
    "web.pitch.tribord": "Draw or block for the centre's cards, tokens at stake: the richest wins.",
    "web.pitch.tamalou": "Swap and snap your four hidden cards down: call with 5 points or less "
                         "to win.",
    "web.pitch.flouk": "Reveal together, give and keep: the largest village wins.",
}

add_catalog("en", TEXT)
add_catalog("fr", web_fr.TEXT)
