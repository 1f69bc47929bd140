"""The global menu's Statistics: this game's finished games at this table, from the history.

    |PALOURDE  Statistics|
    |Games played: 12    |
    |Average: 18 min     |
    |Wins by seat:       |
    |1:5 2:4 3:3         |      (DOWN scrolls; any other button goes back)
    |Won/played:         |      (the game's named players, from the café's roster)
    |Ann 3/7             |
"""
from __future__ import annotations

import sqlite3
from contextlib import closing

from device.players.roster import unnamed
from device.storage.history import PlayerStats, open_history

from .app_view import AppView
from .game_view import header_name
from .modes import Mode, Page
from .screen import Screen, wrap


def stats_lines(app: AppView, game: str, players: tuple[str, ...] = ()) -> list[str]:
    """The game's statistics as screen lines, with each named player's wins at it; "no
    finished game yet" when there is none."""
    try:
        with closing(open_history(app.store.dir)) as history:
            found = history.stats(game)
            named = [history.player(name, game) for name in players if not unnamed(name)]
    except (sqlite3.Error, OSError):
        found = []
    if not found:
        return wrap(app.t("ui.stats_none"))
    stats = found[0]
    lines = [app.t("ui.stats_played", n=stats.played)]
    if stats.average_s is not None:
        lines.append(app.t("ui.stats_average", minutes=round(stats.average_s / 60)))
    seats = " ".join(app.t("ui.stats_seat", seat=seat, wins=won) for seat, won in stats.wins_by_seat)
    return lines + [app.t("ui.stats_wins")] + wrap(seats) + player_lines(app, named)


def player_lines(app: AppView, named: list[list[PlayerStats]]) -> list[str]:
    """"Ann 3/7": games won and played by each player who has finished this game before."""
    rows = [app.t("ui.stats_player", name=f.player, won=f.won, n=f.played)
            for figures in named for f in figures]
    return [app.t("ui.stats_players"), *rows] if rows else []


class Statistics(Page):
    """The lines are read once, when the page opens."""

    def __init__(self, back_to: Mode, lines: list[str]) -> None:
        super().__init__(back_to)
        self._lines = lines

    @classmethod
    def of(cls, app, back_to: Mode) -> Statistics:
        session = app.game()
        return cls(back_to, stats_lines(app, session.spec.id, session.config.players))

    def lines(self, app: AppView) -> list[str]:
        return self._lines

    def screen(self, app: AppView) -> Screen:
        return self.page(app.t(header_name(app.game().spec)), app.t("ui.stats_header"), app)
