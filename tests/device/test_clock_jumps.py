"""Durations on the monotonic clock: a Pi without a real-time clock boots with the time it last
saved and jumps when the network time arrives, by hours or a year, forward or back. Nothing
measured may follow the jump: a game's length (journal, history, stats, the fleet's messages),
the kiosk's idle time, the prompts' countdowns, the time at the table. Only the labels move."""
from __future__ import annotations

import json
from contextlib import closing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from device.clock import Stamp, parse, redate
from device.config import KioskConfig
from device.fleet.plugin import FleetPlugin
from device.kiosk.plugin import Attract, kiosk_plugins
from device.kiosk.system_actions import RecordedSystem
from device.sim.clock import VirtualClock
from device.storage import journal
from device.storage.history import open_history
from device.storage.journal import JournalError
from device.ui.prompt_timer import PromptTimer

from .fleet_tables import CafeTable
from .table import WALL_CLOCK, SimTable
from .test_fleet_parts import FakeLink
from .test_sim_tamalou import UNTIL_LAST_SNAPS

YEAR_S = 365 * 24 * 3600
JUMPS = [YEAR_S, -YEAR_S, 5 * 3600, -5 * 3600]
WIN = ("clam#1", "clam#2", "high_tide#1", "high_tide#2", "high_tide#3")   # Ann wins 2-0-0
MOVE_S = 60                        # each move a minute after the last


def shifted(label: str, seconds: float) -> str:
    """`label` moved on by `seconds`, as the wall clock writes it."""
    clock = VirtualClock(wall=label)
    clock.jump(seconds)
    return clock.wall()


def near(label: str, expected: str) -> bool:
    """Labels are whole seconds: a re-dated one may be a second off the one expected."""
    return abs((parse(label) - parse(expected)).total_seconds()) <= 1


def palourde(table: SimTable) -> SimTable:
    return table.start("palourde", "Ann,Bob,Cy", "Ann", "tie_rule=shared")


def play(table: SimTable, cards, jump_after: int | None = None, jump_s: float = 0) -> SimTable:
    """Tap `cards` a minute apart; the wall clock jumps after the `jump_after`-th."""
    for n, card in enumerate(cards, 1):
        table.run(f"wait {MOVE_S}\ntap {card}")
        if n == jump_after:
            table.clock.jump(jump_s)
    return table


def archived(state_dir) -> list[dict]:
    (path,) = (state_dir / "archive").glob("*-finished.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def played_s(records: list[dict]) -> float:
    """The seconds played at the last move, as the journal says."""
    return [r for r in records if r.get("op") != "end"][-1]["elapsed"]


# ---- the clock itself -----------------------------------------------------------------------------

@pytest.mark.parametrize("jump_s", JUMPS)
def test_a_label_is_re_dated_by_the_jump_and_says_so(jump_s):
    clock = VirtualClock(wall=WALL_CLOCK)
    mark = Stamp(clock.wall(), clock.monotonic())
    clock.advance(300)
    assert redate(mark, clock) == mark                      # no jump: the same label
    clock.jump(jump_s)
    moved = redate(mark, clock)
    assert moved.corrected and moved.at == mark.at
    assert moved.label == shifted(WALL_CLOCK, jump_s)


def test_a_label_from_another_run_or_not_a_time_is_never_re_dated():
    clock = VirtualClock(wall=WALL_CLOCK)
    clock.jump(YEAR_S)
    for mark in (Stamp(WALL_CLOCK, None), Stamp("not a time", 0.0), Stamp("2024-05-04T12:40", 0.0)):
        assert redate(mark, clock) == mark


# ---- a whole game ---------------------------------------------------------------------------------

@pytest.mark.parametrize("jump_s", JUMPS)
def test_a_game_across_a_jump_records_its_real_length_and_its_start_re_dated(
        tmp_path, capsys, jump_s):
    table = play(palourde(SimTable(tmp_path)), WIN, jump_after=2, jump_s=jump_s)
    table.run("wait 30\npress select")                      # the result is left
    records = archived(tmp_path)
    end, moves = records[-1], records[1:-1]
    assert records[0]["started"] == WALL_CLOCK              # the header is never rewritten
    assert [r["elapsed"] for r in moves] == sorted(r["elapsed"] for r in moves)
    real_s = played_s(records)
    assert len(WIN) * MOVE_S <= real_s < len(WIN) * MOVE_S + 60        # not a year
    # recorded as it ended: the seconds on its result are not play
    assert end["clock_corrected"] is True and end["elapsed"] == real_s
    # the start as the set clock would have said it: the jump moved it, the play did not
    assert near(end["started"], shifted(WALL_CLOCK, jump_s))
    with closing(open_history(tmp_path)) as history:
        (game,) = history.games()
        (stats,) = history.stats()
    assert game.duration_s == real_s and stats.average_s == real_s
    assert game.started == end["started"]
    assert main(["history", "--state-dir", str(tmp_path), "--stats"]) == 0
    assert capsys.readouterr().out == "palourde: 1 played, average 5 min; wins by seat 1:1 2:0 3:0\n"


def test_a_game_without_a_jump_keeps_its_start_and_says_nothing_was_corrected(tmp_path):
    play(palourde(SimTable(tmp_path)), WIN).run("wait 30\npress select")
    end = archived(tmp_path)[-1]
    assert "clock_corrected" not in end and "started" not in end
    with closing(open_history(tmp_path)) as history:
        (game,) = history.games()
    assert game.started == WALL_CLOCK and game.duration_s == played_s(archived(tmp_path))


@pytest.mark.parametrize("jump_s", [YEAR_S, -YEAR_S])
def test_a_restart_goes_on_from_the_seconds_played_whatever_the_wall_clock_says(tmp_path, jump_s):
    play(palourde(SimTable(tmp_path)), WIN[:2])
    before = json.loads((tmp_path / "current.jsonl").read_text().splitlines()[-1])["elapsed"]
    again = SimTable(tmp_path)              # a new run: its monotonic clock starts from nothing
    again.clock.jump(jump_s)
    again.app.resume_game()
    assert again.app.store.elapsed() == before
    play(again, WIN[2:]).run("wait 30\npress select")
    records = archived(tmp_path)
    assert played_s(records) == pytest.approx(before + 3 * MOVE_S, abs=10)
    assert "clock_corrected" not in records[-1]   # another run's label: kept as it was written


# ---- timers that count from an input --------------------------------------------------------------

@pytest.mark.parametrize("jump_s", JUMPS)
def test_the_kiosk_waits_its_idle_time_on_the_monotonic_clock(tmp_path, jump_s):
    table = palourde(SimTable(tmp_path))
    table.app.attach(*kiosk_plugins(KioskConfig(enabled=True, attract_after_s=120, dim_after_s=0,
                                                screensaver_after_s=0), RecordedSystem()))
    play(table, WIN[:1])
    table.clock.jump(jump_s)
    table.run("wait 60")
    assert not isinstance(table.app.mode, Attract)      # a year went by on the wall only
    table.run("wait 61")
    assert isinstance(table.app.mode, Attract)
    table.run("press select")                            # Resume game
    assert not isinstance(table.app.mode, Attract) and table.app.session is not None


@pytest.mark.parametrize("jump_s", JUMPS)
def test_the_last_snaps_count_down_through_a_jump(tmp_path, jump_s):
    table = SimTable(tmp_path)
    table.app.attach(PromptTimer())
    table.start("tamalou", "P1,P2,P3", "P2").run(UNTIL_LAST_SNAPS)
    table.clock.jump(jump_s)
    seen = [table.screen.header_right]                 # it began within the script's last wait
    for _ in range(2):
        table.run("wait 2")
        seen.append(table.screen.header_right)
        table.clock.jump(-jump_s)
    assert seen == ["3 s left", "1 s left", "Reveal 1/3"]   # "Snaps are over": the game as it is now


# ---- the fleet's messages -------------------------------------------------------------------------

@pytest.mark.parametrize("jump_s", JUMPS)
def test_the_fleet_tells_the_real_length_and_re_dates_the_times(tmp_path, jump_s):
    table, link = CafeTable(tmp_path / "t1", "t1", None), FakeLink()
    table.clock.set_wall(WALL_CLOCK)
    table.app.attach(FleetPlugin(link, "t1", table.clock.wall))
    table.start("palourde", ["Ann", "Bob", "Cy"])
    for n, card in enumerate(WIN, 1):
        table.play(f"wait {MOVE_S}\ntap {card}")
        if n == 2:
            table.clock.jump(jump_s)
    states = link.of("state")
    assert [s["times"]["elapsed"] for s in states] == sorted(s["times"]["elapsed"] for s in states)
    over = states[-1]["times"]
    assert len(WIN) * MOVE_S <= over["elapsed"] < len(WIN) * MOVE_S + 60
    assert over["started"] == over["seated"] and near(over["started"], shifted(WALL_CLOCK, jump_s))
    table.play("wait 30\npress select")
    (finished,) = link.of("finished")
    assert finished["seconds"] == round(played_s(archived(tmp_path / "t1")))
    assert finished["clock_corrected"] is True and near(finished["started"], over["started"])


# ---- the journal's seconds are checked like everything else in it ---------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=5)


@pytest.fixture(scope="module")
def three_moves(tmp_path_factory) -> list[dict]:
    """A journal's lines: a header and three moves, each with its seconds played."""
    state_dir = tmp_path_factory.mktemp("three-moves")
    play(palourde(SimTable(state_dir)), WIN[:3])
    return [json.loads(text) for text in (state_dir / "current.jsonl").read_text().splitlines()]


@given(value=JSON, line=st.integers(min_value=1, max_value=3))
def test_any_seconds_in_a_journal_resume_as_they_are_or_as_damage(
        tmp_path_factory, three_moves, value, line):
    records = [dict(r) for r in three_moves]
    records[line]["elapsed"] = value
    path = tmp_path_factory.getbasetemp() / "fuzzed-elapsed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    try:
        resumed = journal.resume(path)
    except JournalError as exc:
        assert exc.reason.key == "ui.journal_damaged"
        return
    assert isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    assert resumed.elapsed == float(records[-1]["elapsed"])
