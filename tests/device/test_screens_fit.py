"""Every frame of the five full games fits the display: nothing is cut at 21 characters."""
from __future__ import annotations

import pytest

from . import test_sim_auberge, test_sim_flouk, test_sim_palourde, test_sim_tamalou, test_sim_tribord
from .table import Table, too_wide

GAMES = {"palourde": test_sim_palourde, "auberge": test_sim_auberge, "tribord": test_sim_tribord,
         "tamalou": test_sim_tamalou, "flouk": test_sim_flouk}


@pytest.mark.parametrize("game", GAMES)
def test_no_line_is_cut(tmp_path, game):
    script = GAMES[game]
    table = Table(tmp_path).run(script.SETUP + script.PLAY)
    cut = {line for screen in table.screens for line in too_wide(screen)}
    assert not cut
    assert any(screen.header == table.app.t("ui.game_over") for screen in table.screens)
