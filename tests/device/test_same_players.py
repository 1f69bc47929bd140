"""A rematch on the OLED alone: "Same players" (the last game's seats, their names, who
started) is the first choice of the player count, in every game, and three presses from the
game's line of the game select start it; the seats are kept from a game set up by the menus."""
from __future__ import annotations

import pytest

from device.storage.seats import FILE, recall, remember
from device.ui.playing import Playing
from device.ui.wizard import Instruction
from engine.core.registry import built_in
from tests.device.table import SimTable, to_game

NAMES = ("Maximilian", "Ann", "Cy", "Dee", "Eve", "Fay")


def seats_for(spec) -> tuple[str, ...]:
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return NAMES[:max(low, min(3, high))]


@pytest.mark.parametrize("spec", built_in(), ids=lambda spec: spec.id)
def test_the_same_players_reach_the_deal_in_three_presses(tmp_path, spec):
    """From the game's line: the game, its house rules as they are, "Same players"; then the
    deal, whose first card starts the game (a game that asks a card first)."""
    last = seats_for(spec)
    remember(tmp_path, last, last[-1])
    table = SimTable(tmp_path).run(to_game(spec.id).rsplit("press select", 1)[0])   # on its line
    presses = 0
    while not isinstance(table.app.mode, (Instruction, Playing)) and presses < 10:
        lines = table.screen.lines
        assert "Same players" not in lines or table.screen.highlight == lines.index("Same players")
        table.run("press select")
        presses += 1
    assert presses <= 3
    table.run("press select")                            # dealt (a card would do it as well)
    assert table.app.session.config.players == last
    if spec.look.asks_first is not None:
        assert table.app.session.config.first == last[-1]


def test_a_game_set_up_by_the_menus_is_the_next_rematch(tmp_path):
    table = SimTable(tmp_path).run(to_game("auberge") + "press select\n" * 4)   # 2 players, dealt
    players = table.app.session.config.players
    assert recall(tmp_path)[0] == players and len(players) == 2


@pytest.mark.parametrize("text", ['{"players": ["Ann", "Ann"]}', '{"players": ["two words"]}',
                                  '{"players": []}', "[1, 2]", "not json", '{"players": [3]}'])
def test_a_seats_file_that_does_not_read_offers_nothing(tmp_path, text):
    (tmp_path / FILE).write_text(text)
    assert recall(tmp_path) == ((), None)
    table = SimTable(tmp_path).run(to_game("auberge") + "press select")
    assert "Same players" not in table.screen.lines
