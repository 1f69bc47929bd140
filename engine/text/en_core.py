"""English texts shared by every game."""

TEXT = {
    "core.game_over": "Game over – SELECT",
    "core.unknown_card": "Unknown card",
    "core.wrong_game": "That's a {deck} card",
    "core.wrong_deck": "Card from other deck",
    "core.use_buttons": "Use the buttons",
    "core.same_card": "Same card twice",
    "core.out_of_play": "Card is out of play",
    "core.in_play": "Card already on table",
    "core.nothing_to_undo": "Nothing to undo",
    "core.nothing_to_redo": "Nothing to redo",
    "core.undone": "Undone",
    "core.name": "{name}",
    "core.not_a_choice": "Not a choice here",
    "core.no_winner": "No winner",
    # a house rule that is on or off, in every game's menu
    "opt.on": "on",
    "opt.off": "off",
    # asked by the setup of games that ask who starts
    "ui.first_player": "Who starts?",
}
