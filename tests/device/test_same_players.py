"""A rematch on the OLED alone: the game select opens on the last game set up by the menus,
and "Same players" (its seats, their names, who started) is the first choice of the player
count, in every game; so the same players again are at most three presses from the game
select, read off the frames, and the deal screen takes their first card."""
from __future__ import annotations

import pytest

from device.players.roster import Roster, new_player
from device.storage.seats import FILE, last_game, recall, remember
from device.ui.game_select import GameSelect
from device.ui.game_view import menu_name
from device.ui.playing import Playing
from device.ui.wizard import Instruction
from engine.core.registry import built_in
from tests.device.table import SimTable, to_game, whole_games

NAMES = ("Maximilian", "Ann", "Cy", "Dee", "Eve", "Fay")


def seats_for(spec) -> tuple[str, ...]:
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return NAMES[:max(low, min(3, high))]


def first_tap(game: str) -> str | None:
    """The first card the game's whole-game script taps, where its first prompt takes one."""
    lines = whole_games()[game].PLAY.strip().splitlines()
    return lines[0] if lines[0].startswith("tap ") else None


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("spec", built_in(), ids=lambda spec: spec.id)
def test_the_same_players_again_in_three_presses_from_the_game_select(tmp_path, spec, language):
    """After a game, the game select's highlight is on it: SELECT, its house rules as they
    are, "Same players"; the deal screen then takes the first card (Flouk deals in its own
    prompts first: its deal asks a SELECT before any card)."""
    last = seats_for(spec)
    remember(tmp_path, last, last[-1], spec.id)
    table = SimTable(tmp_path, language)
    shown = table.screen
    assert shown.lines[shown.highlight] == table.app.t(menu_name(spec))
    same = table.app.t("ui.same_players")
    presses = 0
    while not isinstance(table.app.mode, (Instruction, Playing)) and presses < 10:
        screen = table.screens[-1] if table.screens else table.screen
        assert same not in screen.lines or screen.highlight == screen.lines.index(same)
        table.run("press select")
        presses += 1
    assert presses <= 3 and isinstance(table.app.mode, Instruction)
    assert table.app.mode.setup.names() == last
    tap = first_tap(spec.id)
    if tap is None:                               # the game's own deal prompts first
        table.run("press select")
    else:
        table.run(tap)
        assert len(table.app.session.events) == 1       # the card taken, as the first move
    config = table.app.session.config
    assert config.players == last
    if spec.look.asks_first is not None:
        assert config.first == last[-1]


def test_the_game_select_opens_on_the_last_game_played(tmp_path):
    SimTable(tmp_path).run(to_game("tamalou") + "press select\n" * 4)   # 3 players, P1 starts
    assert last_game(tmp_path) == "tamalou"
    again = SimTable(tmp_path)
    shown = again.screen
    assert isinstance(again.app.mode, GameSelect) and shown.lines[shown.highlight] == "Tamalou"
    again.run("press select\npress select")
    assert again.app.t("ui.same_players") == again.screen.lines[again.screen.highlight]


def test_a_fresh_table_opens_on_the_menus_first_game(tmp_path):
    table = SimTable(tmp_path).run("press select")
    assert table.app.mode.setup.spec.id == min(built_in(), key=lambda spec: spec.order).id


def test_a_game_set_up_by_the_menus_is_the_next_rematch(tmp_path):
    table = SimTable(tmp_path).run(to_game("auberge") + "press select\n" * 4)   # 2 players, dealt
    players = table.app.session.config.players
    assert recall(tmp_path)[0] == players and len(players) == 2


def test_roster_names_keep_the_last_order_used(tmp_path):
    """Seated Cy then Ann: the next setup offers Cy, Ann first, and "Same players" seats them
    in that order."""
    roster = Roster(tmp_path)
    for name in ("Ann", "Bo", "Cy"):
        roster.add(new_player(name))
    table = SimTable(tmp_path).run(to_game("auberge") + "press select\n" * 2)   # rules; count
    assert "Cy" in table.screen.lines
    for name in ("Cy", "Ann"):                                                      # seats 1, 2
        offered = [key for key, _ in table.app.mode.menu.items]
        table.run("press down\n" * offered.index(name) + "press select")
    table.run("press select")                                                       # dealt
    assert table.app.session.config.players == ("Cy", "Ann")
    assert [p.short for p in Roster(tmp_path).players()][:2] == ["Cy", "Ann"]
    again = SimTable(tmp_path).run("press select\npress select")
    assert again.screen.lines[again.screen.highlight] == "Same players"
    again.run("press down\npress select")                                          # 2 players
    assert [key for key, _ in again.app.mode.menu.items][:2] == ["Cy", "Ann"]


@pytest.mark.parametrize("text", ['{"players": ["Ann", "Ann"]}', '{"players": ["two words"]}',
                                  '{"players": []}', "[1, 2]", "not json", '{"players": [3]}',
                                  '{"game": 7}', '{"game": ["tamalou"]}'])
def test_a_seats_file_that_does_not_read_offers_nothing(tmp_path, text):
    (tmp_path / FILE).write_text(text)
    assert recall(tmp_path) == ((), None) and last_game(tmp_path) is None
    table = SimTable(tmp_path)
    assert table.screen.highlight == 0
    table.run(to_game("auberge") + "press select")
    assert "Same players" not in table.screen.lines


def test_a_game_whose_players_joined_by_tap_is_the_one_opened_on(tmp_path):
    """Palourde with no roster and no seats known: its fishermen join by Basket taps,
    unnamed; the game select opens on Palourde after it all the same."""
    (tmp_path / FILE).write_text('{"game": "flouk", "players": [], "first": null}')
    table = SimTable(tmp_path)
    assert table.screen.lines[table.screen.highlight] == "Flouk"
    setup = whole_games()["palourde"].SETUP[len(to_game("palourde")):]
    table.run("press down\npress down\npress select\n" + setup)     # Language, Palourde
    assert table.app.session.spec.id == "palourde"
    assert last_game(tmp_path) == "palourde" and recall(tmp_path) == ((), None)


def test_a_game_no_longer_registered_opens_on_the_first(tmp_path):
    remember(tmp_path, ("Ann", "Cy"), None, "gone")
    table = SimTable(tmp_path).run("press select")
    assert table.app.mode.setup.spec.id == min(built_in(), key=lambda spec: spec.order).id

