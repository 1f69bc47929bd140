"""The setup wizard's menus: house rules, then the player count they allow, then the deal."""
from __future__ import annotations

import pytest

import engine
from device.ui.screen import wrap

from .table import SimTable, to_game, too_wide

FLOUK = to_game("flouk")
TRIBORD = to_game("tribord")


def test_house_rules_set_the_player_range(tmp_path):
    # Flouk plays 3-5 by default; min_players=2 opens the 2-player game (AMB-F1).
    table = SimTable(tmp_path).run(FLOUK + "press down\npress select\npress down\npress select\n"
                                        "press up")
    assert table.screen.lines[:3] == ("House rules", "Start game", f"{'Min players':<18}2")
    table.run("press select")
    assert table.screen.lines == ("How many players?", "2 players", "3 players", "4 players")


def test_rules_that_allow_no_player_count_keep_the_menu(tmp_path):
    # min_players=4 and max_players=3: nothing to choose from, so the menu stays.
    table = SimTable(tmp_path).run(FLOUK + "press down\npress select\npress up\npress select\n"
                                        "press down\npress select\npress down\npress down\n"
                                        "press select\npress up\npress up\npress select")
    assert "No player count fits" in table.text
    table.run("wait 2")
    assert table.screen.lines[0] == "House rules"


def test_the_deal_instruction_quotes_the_house_rules(tmp_path):
    table = SimTable(tmp_path).run(TRIBORD + "press down\npress select\npress down\npress select\n"
                                          "press up\npress select\npress up\npress select\n"
                                          "press select\npress select")
    assert table.screen.lines[:2] == ("Give 2 tokens", "each. SELECT")


def test_every_house_rule_line_fits_and_shows_its_value(tmp_path):
    table = SimTable(tmp_path).run(FLOUK + "press down\n" * 8 + "press up\n" * 3)
    assert not [bad for screen in table.screens for bad in too_wide(screen)]
    assert "White tie   by seat" in table.text


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", [spec.id for spec in engine.all_specs() if spec.look.deal])
def test_a_game_begun_from_the_command_line_shows_its_deal_first(tmp_path, game, language):
    # `tabletop run --game tamalou --players Ann,Bob`: the same instruction as from the menus.
    table = SimTable(tmp_path, language).start(game, "Ann,Bob,Cy", dealt=False)
    spec = engine.get(game)
    deal = table.app.t(spec.look.deal.key, **dict(table.app.session.config.options))
    assert "\n".join(table.screen.lines) == deal
    assert not too_wide(table.screen)
    table.run("press back")                              # the game is on: BACK leaves nothing
    assert table.app.session is not None and "\n".join(table.screen.lines) == deal
    table.run("press select")
    assert table.screen.lines[:1] == tuple(wrap(table.app.t(spec.prompt(table.app.session.state)
                                                            .text)))[:1]
