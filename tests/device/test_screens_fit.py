"""Every frame of each full game fits the display: nothing is cut at 21 characters."""
from __future__ import annotations

import pytest

from .table import Table, too_wide, whole_games

GAMES = whole_games()


@pytest.mark.parametrize("game", GAMES)
def test_no_line_is_cut(tmp_path, game):
    script = GAMES[game]
    table = Table(tmp_path).run(script.SETUP + script.PLAY)
    cut = {line for screen in table.screens for line in too_wide(screen)}
    assert not cut
    assert any(screen.header == table.app.t("ui.game_over") for screen in table.screens)
