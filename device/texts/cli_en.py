"""English texts of the command line (`tabletop ...`): messages, --help, the deck walk."""
from engine.core.text import add_catalog

from . import cli_fr

TEXT = {
    # argparse's own words
    "cli.usage": "usage: ",
    "cli.positionals": "positional arguments",
    "cli.options": "options",
    "cli.help.help": "show this help message and exit",
    # tabletop
    "cli.description": "A table-side companion for card games.",
    "cli.help.language": "language of the messages and help: en or fr "
                         "(default: the config's, else the system locale's)",
    "cli.help.replay": "run an event script and print the outcome",
    "cli.help.script": "the event script (DESIGN.md 6.2)",
    "cli.help.json": "print one JSON object",
    "cli.help.run": "start the companion",
    "cli.help.status": "the running or last game",
    "cli.help.state_dir": "where games, decks and history live",
    "cli.problem": "tabletop: {problem}",
    "cli.cannot_read": "tabletop: cannot read {path}: {why}",
    # run
    "cli.help.sim": "simulated hardware, input from stdin",
    "cli.help.config_file": "the TOML config file",
    "cli.help.frames": "write each new frame as a PNG here",
    "cli.help.game": "skip the setup wizard: the game to start",
    "cli.help.players": "with --game: names, comma-separated, clockwise",
    "cli.help.first": "with --game: who starts",
    "cli.help.option": "with --game: a house rule (repeatable)",
    "cli.run.no_hardware": "No table hardware found: running on simulated hardware in the "
                           "terminal.",
    "cli.run.typing": "Type a line and Enter: tap CARD (e.g. tap clam#3), "
                      "press up|down|select|back, hold select|back, wait SECONDS. "
                      "Ctrl-D saves and quits.",
    "cli.help.new_game": "with --game: set an unfinished game aside and start anew",
    "cli.run.unfinished": "An unfinished game is in {dir}: resume it with `tabletop run` "
                          "(without --game), or add --new to set it aside",
    "cli.run.saved": "Game saved in {dir}: `tabletop run --sim --state-dir {dir}` resumes it",
    "cli.run.option_form": "--option {item}: use KEY=VALUE",
    # replay and status
    "cli.tally.over": "{game}: game over",
    "cli.tally.next": "{game}: next: {prompt}",
    "cli.tally.player": "  {name:<10} {score:>4}",
    "cli.tally.player_out": "  {name:<10} {score:>4}  (out)",
    "cli.winners": "Winners: {names}",
    "cli.no_winners": "Winners: none",
    "cli.status.unreadable": "tabletop: cannot read the game in {dir}: {why}",
    "cli.status.no_game": "No game in {dir}",
    # config
    "cli.help.config": "print an example configuration or check one",
    "cli.help.config_description": "Print a commented example configuration, or check a "
                                   "configuration file.",
    "cli.help.config_example": "print every key with its default and what it does",
    "cli.help.config_check": "check FILE; exit 2 if it is wrong",
    "cli.config.ok": "{file}: OK (reader {reader}, display {display} on {bus}, kiosk {kiosk})",
    # cards
    "cli.help.cards": "check or install a card data file (Flouk)",
    "cli.help.cards_check": "list every problem of a card file",
    "cli.help.cards_install": "check a card file, then use it on this table",
    "cli.help.cards_deck": "the deck the file describes",
    "cli.cards.ok_check": "{file}: OK",
    "cli.cards.ok_install": "{file}: OK, installed",
    # history
    "cli.help.history": "finished games, and statistics per game",
    "cli.help.history_game": "only this game (palourde, auberge, tribord, ...)",
    "cli.help.history_csv": "one CSV row per game, seats in order",
    "cli.help.history_stats": "per game: games played, average duration, wins by seat",
    "cli.history.unreadable": "tabletop: cannot read the history in {dir}: {why}",
    "cli.history.none": "No finished game yet.",
    "cli.history.minutes": "{n} min",
    "cli.history.stats": "{game}: {n} played, average {average}; wins by seat {wins}",
    # deck
    "cli.help.deck_dir": "where decks are kept (default: $XDG_STATE_HOME/tabletop)",
    "cli.help.deck": "enrol, list and share decks of tagged cards",
    "cli.help.deck_learn": "tap every card of a deck in turn",
    "cli.help.deck_game": "a game (palourde, auberge, ...) or deck family",
    "cli.help.deck_name": "the deck's name (default: the family)",
    "cli.help.deck_stdin": "read tag UIDs from standard input (`tap uid:04A1B2C3` or a bare UID)",
    "cli.help.deck_list": "every deck and whether it is complete",
    "cli.help.deck_export": "print a deck to share",
    "cli.help.deck_import": "add a deck exported elsewhere",
    "cli.help.deck_import_name": "store it under another name",
    "cli.help.deck_replace": "replace a deck of that name",
    "cli.help.deck_remove": "forget a deck",
    "cli.help.staff": "staff cards (they open the admin menu)",
    "cli.help.staff_add": "register a tag as a staff card",
    "cli.help.staff_remove": "unregister a staff card",
    "cli.help.staff_list": "every staff card",
    "cli.deck.no_reader": "tabletop: no tag reader here: pipe tag UIDs on standard input, "
                          "or use --stdin",
    "cli.deck.incomplete": "Deck {deck} is not complete yet: learn it again to go on.",
    "cli.deck.not_a_uid": "line {line}: not a tag UID: {text}",
    "cli.deck.complete": "complete",
    "cli.deck.missing": "missing {n}: {cards}",
    "cli.deck.missing_more": "missing {n}: {cards}...",
    "cli.deck.row": "{name:<16} {family:<9} {size:>3} tags  {state}",
    "cli.deck.none": "No decks in {dir}: tabletop deck learn GAME",
    "cli.deck.cards_missing": "{n} cards missing",
    "cli.deck.imported": "Imported deck {name} ({family}, {size} tags, {missing})",
    "cli.deck.removed": "Removed deck {name}",
    "cli.staff.added": "Staff card {label} added",
    "cli.staff.removed": "Staff card {uid} removed",
    # fleet and dashboard
    "cli.help.fleet": "decks and staff cards the café's tables share",
    "cli.help.fleet_config": "the TOML config file ([fleet]: the broker)",
    "cli.help.fleet_dir": "where decks are kept",
    "cli.help.fleet_shared": "what the tables share",
    "cli.help.fleet_import_deck": "add a shared deck",
    "cli.help.fleet_import_staff": "add the shared staff cards this table lacks",
    "cli.fleet.deck": "deck  {name:<16} {family:<9} from {table}",
    "cli.fleet.staff": "staff {n:>3} cards             from {table}",
    "cli.fleet.nothing": "Nothing shared yet: tabletop deck publish NAME",
    "cli.fleet.imported": "Imported deck {name} from {table} ({family}, {size} tags, {missing})",
    "cli.fleet.skipped": "tabletop: skipped: {problem}",
    "cli.fleet.staff_added": "Added {n} staff cards from {table}",
    "cli.fleet.shared_deck": "Shared deck {deck} from {table} as {topic}",
    "cli.fleet.shared_staff": "Shared the staff cards from {table} as {topic}",
    "cli.help.dashboard": "every table of the café, live, in a browser",
    "cli.help.dashboard_host": "address to listen on (default 127.0.0.1)",
    "cli.help.dashboard_port": "port to listen on (default 8080)",
    "cli.help.dashboard_token": "asked for by the page when not on a loopback address",
    "cli.dashboard.problem": "tabletop dashboard: {problem}",
    "cli.dashboard.on": "Dashboard on {url} (broker {broker}); Ctrl-C stops it.",
    # bench and doctor
    "cli.help.bench": "measure the device's speed on simulated hardware",
    "cli.help.bench_description": "Measure the device's speed in one run on simulated hardware, "
                                  "side by side with the peers.",
    "cli.help.bench_quick": "fewer and shorter runs (under 30 s)",
    "cli.help.bench_dir": "scratch folder for journals (default: a temporary one); put it where "
                          "the state dir lives, as fsync time depends on the disk",
    "cli.help.doctor": "check the table: software, wiring, parts, decks",
    "cli.help.doctor_description": "Check everything the table needs, one line a check; exit 1 "
                                   "if something must be fixed.",
    "cli.help.doctor_sim": "check the simulated parts instead",
    "cli.help.doctor_config": "the TOML config (default: /etc/tabletop/config.toml if present)",
    "cli.doctor.failed": "{failed} to fix, {warned} to look at: see the FAIL lines.",
    "cli.doctor.warned": "Ready, {warned} to look at: see the WARN lines.",
    "cli.doctor.ready": "Ready to play.",
    # the deck walk (`tabletop deck learn`, and the admin menu's Learn a deck)
    "learn.deck": "Learn deck {deck}",
    "learn.tap": "Tap {card}",
    "learn.complete": "Deck complete",
    "learn.count": "{n} of {total} done",
    "learn.unreadable": "Unreadable tag",
    "learn.ok": "{card} OK",
    "learn.other_deck": "Tag of deck {deck}",
    "learn.already": "Already {card}",
    "learn.copy": "{card} {copy}",
    "learn.copy_of": "{card} {copy}/{copies}",
    "learn.number": "Card {n}",
    "learn.decree": "Decree",
    "learn.action": "Action",
}

add_catalog("en", TEXT)
add_catalog("fr", cli_fr.TEXT)
