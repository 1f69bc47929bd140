"""A game is recorded the moment it ends: its end journaled, the game archived and in the
history, before anyone presses anything. The result stays on screen, across a restart too,
until SELECT, which only starts the next thing."""
from __future__ import annotations

from contextlib import closing

from hypothesis import given
from hypothesis import strategies as st

from device.storage.history import keep_history, open_history
from device.storage.store import RESULT
from device.ui.game_select import GameSelect
from device.ui.playing import GameOver

from .table import SimTable
from .test_game_over import AUBERGE_3


def ended(state_dir) -> SimTable:
    table = SimTable(state_dir)
    keep_history(table.app.store)
    return table.start("auberge").run(AUBERGE_3)


def in_history(state_dir) -> list:
    with closing(open_history(state_dir)) as history:
        return [(game.game, game.winners) for game in history.games()]


def restarted(state_dir) -> SimTable:
    table = SimTable(state_dir)
    keep_history(table.app.store)
    table.app.resume_game()
    return table


def test_a_game_is_in_the_history_as_it_ends_before_any_press(tmp_path):
    table = ended(tmp_path)
    assert table.screen.header == "GAME OVER" and table.screen.lines[0] == "P2 wins!"
    assert not (tmp_path / "current.jsonl").exists()
    assert [p.name for p in table.app.store.archived()] == ["000001-finished.jsonl"]
    assert in_history(tmp_path) == [("auberge", ("P2",))]
    table.run("press select")                   # only the next thing: the game select
    assert isinstance(table.app.mode, GameSelect) and table.app.session is None
    assert in_history(tmp_path) == [("auberge", ("P2",))]
    assert not (tmp_path / RESULT).exists()


def test_a_result_nobody_left_is_shown_again_after_a_restart_and_counted_once(tmp_path):
    before = ended(tmp_path).screen
    table = restarted(tmp_path)
    assert isinstance(table.app.mode, GameOver)
    table.run("press back\npress back")         # the last move's messages, shown again, go
    assert table.screen.lines == before.lines
    table.run("press down\npress select")
    assert isinstance(table.app.mode, GameSelect)
    assert in_history(tmp_path) == [("auberge", ("P2",))]
    again = restarted(tmp_path)                 # left: the next start is at the game select
    assert again.app.session is None and isinstance(again.app.mode, GameSelect)


def test_a_game_over_on_disk_without_its_end_is_recorded_as_the_table_starts(tmp_path):
    """What a table stopped between its last move and the end line leaves (and what an older
    version left on a result nobody confirmed)."""
    table = ended(tmp_path)
    archived = table.app.store.archived()[0]
    lines = archived.read_text().splitlines()
    assert '"op": "end"' in lines[-1]
    (tmp_path / "current.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    archived.unlink()
    (tmp_path / RESULT).unlink()
    table = restarted(tmp_path)
    assert isinstance(table.app.mode, GameOver) and not (tmp_path / "current.jsonl").exists()
    end = table.app.store.archived()[0].read_text().splitlines()[-1]
    assert end.replace(' ', '').split('"at":')[0] == lines[-1].replace(' ', '').split('"at":')[0]
    assert in_history(tmp_path) == [("auberge", ("P2",))]


def test_the_recorded_result_takes_no_undo(tmp_path):
    table = ended(tmp_path)
    state = table.state()
    table.run("hold back\npress select")
    assert table.state() == state and table.screen.lines[0] == "Game over – SELECT"
    assert len(table.app.store.archived()) == 1 and in_history(tmp_path) == [("auberge", ("P2",))]


@given(st.binary(max_size=64))
def test_a_hostile_result_note_never_stops_a_start(tmp_path_factory, data):
    state_dir = tmp_path_factory.mktemp("result")
    (state_dir / RESULT).write_bytes(data)
    table = restarted(state_dir)                # no archived game: nothing to show, ever
    assert table.app.session is None and isinstance(table.app.mode, GameSelect)


def test_the_cafe_hears_of_the_game_as_it_ends_and_by_the_same_id_after_a_restart(tmp_path):
    from device.fleet.plugin import FleetPlugin

    from .test_fleet_parts import FakeLink

    heard = []
    for run in ("ended", "restarted"):
        table, link = SimTable(tmp_path), FakeLink()
        fleet = FleetPlugin(link, "t1", table.clock.wall)
        table.app.attach(fleet)
        if run == "ended":
            table.start("auberge").run(AUBERGE_3)
        else:                                   # on the result nobody left: told again
            table.app.resume_game()
            fleet.start(table.app)
        heard += link.of("finished")
    first, again = heard
    assert first["winners"] == ["P2"] and first["game_id"] == again["game_id"]  # counted once
    assert first["seconds"] == again["seconds"] and first["started"] == again["started"]


def test_the_result_is_drawn_before_the_game_is_put_away(tmp_path):
    """The frame of the move that ends the game goes out first; its end is recorded right after
    (the loop's `settle`), so the players wait for no disk."""
    table = SimTable(tmp_path)
    keep_history(table.app.store)
    drawn = []

    def frame(image, screen) -> None:
        session = table.app.session
        if session is not None and session.spec.result(session.state) is not None:
            drawn.append((tmp_path / "current.jsonl").exists())
    table.frames.on_frame = frame
    table.start("auberge").run(AUBERGE_3)
    assert drawn[0] is True and drawn[-1] is False      # drawn, then archived
    assert in_history(tmp_path) == [("auberge", ("P2",))]
