"""Kill -9 and resume: no accepted event lost, none applied twice.

A whole Palourde game runs through `tabletop run --sim` in a process of its own (forked
from one that has imported what a table's start imports: tests/device/forked_tables.py), fed
one input line at a time. The process tells where it is: `ack N` once line N is
handled (TABLETOP_SIM_ACK), and `journal written` / `journal synced` around each
journal write (`noted`, `archived`, `history` as a game's end is recorded), where it
stops itself (TABLETOP_JOURNAL_STOPS) until the test lets it go on or kills it. Kill
points are picked by a seeded generator among all those places, and single kills at
each step from the game's end to SELECT on its result; after each kill the process
starts again with the rest of the input (the lines after the last input its journal
saved) and must end exactly where the uninterrupted run ended: the same journal, the
same scores, one game in the history.
"""
from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
from collections import deque
from contextlib import closing
from pathlib import Path

import pytest

from device.storage import journal
from device.storage.history import open_history
from device.storage.status import latest_journal, status
from device.storage.store import RESULT

from .forked_tables import TableServer

FLAGS = ["--game", "palourde", "--players", "Ann,Bob,Cy"]
SEED = 20240504
KILLS = 16                # each is a restart of a whole table process: enough to reach every stage
TEARS = 8
# The kills are dealt to games played side by side (each from the start, on its own state
# dir), so the suite's workers share them: one game killed 16 times in a row was the suite's
# longest wait.
GAMES = 4

# Every kind of input: pairs with messages, a menu choice, undo, the scores, the global
# menu, an unknown tag, waits, and the result (the last tap ends and records the game;
# SELECT only leaves it). Some
# messages are cleared by a button, which then does nothing else: a restart that did not
# show the last message again would take that button for a move and choose otherwise.
GAME = """\
tap clam#1
tap clam#2
press down
press down
press back
tap high_tide#1
tap crab#1
tap crab#2
press down
press down
press up
press select
press select
hold back
press select
press up
press down
press up
press select
wait 2
tap high_tide#2
wait 2
hold select
press down
press back
tap rake#1
tap clam#3
tap uid:DEADBEEF
wait 2
tap shrimp#1
tap shrimp#2
tap high_tide#3
wait 2
press down
press up
press select
""".splitlines()


class Process:
    """One `tabletop run --sim`, its standard error read a line at a time."""

    def __init__(self, tables: TableServer, state_dir: Path, flags: list[str]) -> None:
        self.proc = tables.start(["run", "--sim", "--state-dir", str(state_dir), *flags])
        self.buffer = b""
        self.log: list[str] = []

    def event(self) -> str:
        """The next `written`, `synced` or `ack`; other lines (logs, tones) go to `log`."""
        while True:
            line = self._line()
            if line.startswith("journal "):
                return line.split()[1]
            if line.startswith("ack "):
                return "ack"
            self.log.append(line)

    def _line(self) -> str:
        fd = self.proc.stderr
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], 60)
            chunk = os.read(fd, 65536) if ready else b""
            assert chunk, f"the process fell silent; its last words: {self.log[-5:]}"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def go_on(self) -> None:
        """Let a process that stopped itself at a journal write go on."""
        assert self.proc.stopped(), "the process ended instead of stopping at the journal"
        os.kill(self.proc.pid, signal.SIGCONT)

    def feed(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.close()

    def finish(self) -> None:
        """End of input: the process saves and exits 0."""
        self.proc.stdin.close()
        while chunk := os.read(self.proc.stderr, 65536):
            self.buffer += chunk
        self.log += self.buffer.decode().splitlines()
        assert self.proc.wait() == 0, self.log[-5:]
        self.close()

    def close(self) -> None:
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        os.close(self.proc.stderr)


def saved_input(state_dir: Path) -> int:
    """The last input the state dir's journal saved: a restart feeds the lines after it."""
    latest = latest_journal(state_dir)
    return journal.last_input(latest) if latest else 0


def run_once(tables: TableServer, state_dir: Path, stations: list, kill_at: deque | None,
             last: int = len(GAME)) -> tuple[Process, bool]:
    """Start (a new game if there is no journal yet) and feed the rest of the input; kill the
    process at the first place it reaches at or after `stations[kill_at[0]]`: places are
    counted in the uninterrupted run's order, which a run without `kill_at` records. A
    restarted process is followed through that order from the first place of the line it
    starts after (its start may finish what the kill left: a game's end).
    `last`: the line the input ends at. The process, and whether it was killed."""
    start = saved_input(state_dir)
    new_game = latest_journal(state_dir) is None
    process = Process(tables, state_dir, FLAGS if new_game else [])
    at = [next((i for i, (number, _) in enumerate(stations) if number >= start), 0)]

    def reached(number: int, stage: str) -> bool:
        if kill_at is None:
            stations.append((number, stage))
            return False
        assert (number, stage) in stations[at[0]:], \
            f"the restarted game went elsewhere: {number} {stage}"
        at[0] = stations.index((number, stage), at[0])
        if kill_at and at[0] >= kill_at[0]:
            kill_at.popleft()
            process.kill()
            return True
        return False

    def through(number: int) -> bool:
        """The places up to the line's `ack`; True if the process was killed at one."""
        while (stage := process.event()) != "ack":
            if reached(number, stage):
                return True
            process.go_on()
        return reached(number, stage)

    if through(start):                        # a new game's header; a resumed game's end
        return process, True
    for number in range(start + 1, last + 1):
        process.feed(GAME[number - 1])
        if through(number):
            return process, True
    process.finish()
    return process, False


def play_with_kills(tables: TableServer, state_dir: Path, stations: list, kill_at: deque,
                    after_run=None) -> int:
    """Run, kill, restart with the rest of the input, until the input is done; the kills.
    `after_run(state_dir, process, killed)` sees each process once it is gone."""
    kills = 0
    while True:
        process, killed = run_once(tables, state_dir, stations, kill_at)
        if after_run is not None:
            after_run(state_dir, process, killed)
        if not killed:
            return kills
        kills += 1


def outcome(state_dir: Path) -> dict:
    """Everything the game left: its archived journal (without ids and clock times), the
    status, the history, and which files exist."""
    (archived,) = (state_dir / "archive").glob("*.jsonl")
    header, *records = [json.loads(line) for line in archived.read_text().splitlines()]
    for key in ("id", "started"):
        header.pop(key)
    for record in records:
        record.pop("at", None)
    with closing(open_history(state_dir)) as history:
        games = [(g.game, g.players, g.events, g.journal) for g in history.games()]
    files = sorted(str(p.relative_to(state_dir)) for p in state_dir.rglob("*.jsonl"))
    return {"journal": [header, *records], "status": status(state_dir), "history": games,
            "files": files, "result shown": (state_dir / RESULT).exists()}


@pytest.fixture(scope="module")
def tables():
    """Where the tables are started: forked, each a process of its own, from one that has
    imported what a table's start imports (tests/device/forked_tables.py)."""
    server = TableServer({**os.environ, "TABLETOP_SIM_ACK": "1", journal.STOPS: "1"})
    yield server
    server.close()


@pytest.fixture(scope="module")
def baseline(tables, tmp_path_factory):
    """The uninterrupted run: where it must end, and every station a kill may hit."""
    state_dir = tmp_path_factory.mktemp("baseline")
    stations: list = []
    run_once(tables, state_dir, stations, None)
    return outcome(state_dir), stations


def kill_points(stations: list, count: int, seed: int) -> deque:
    """`count` places of the game, in order, drawn by a seeded generator."""
    return deque(sorted(random.Random(seed).sample(range(len(stations)), count)))


def dealt(points: deque, game: int, games: int) -> deque:
    """Game `game`'s share of `points` when they are dealt round to `games` games, in order."""
    return deque(list(points)[game::games])


def test_the_uninterrupted_game_is_whole(baseline):
    result, stations = baseline
    assert result["status"]["over"] and result["status"]["winners"] == ["Ann", "Bob", "Cy"]
    assert result["files"] == ["archive/000001-finished.jsonl"]
    assert len(result["history"]) == 1
    ops = [r["op"] for r in result["journal"][1:]]
    assert ops.count("undo") == 1 and ops[-1] == "end" and len(ops) == 15
    assert len(stations) > 2 * KILLS


@pytest.mark.parametrize("game", range(GAMES))
def test_killed_at_random_points_the_game_ends_as_if_never_killed(tables, baseline, tmp_path, game):
    result, stations = baseline
    every = kill_points(stations, KILLS, SEED)
    assert {stations[i][1] for i in every} == {"written", "synced", "ack"}
    kill_at = dealt(every, game, GAMES)
    assert play_with_kills(tables, tmp_path, stations, kill_at) >= len(kill_at) - 1
    assert outcome(tmp_path) == result         # no accepted event lost, none applied twice


class PowerCuts:
    """After each kill, what a power cut mid-write leaves: the journal's last line loses its
    end (never the header, which is written whole or not at all). Counts tears and reports."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.tears = 0
        self.reports = 0

    def __call__(self, state_dir: Path, process: Process, killed: bool) -> None:
        self.reports += sum("dropped a torn last line" in line for line in process.log)
        current = state_dir / "current.jsonl"
        if not killed or not current.exists():
            return
        data = current.read_bytes()
        if data.count(b"\n") > 1:
            last = len(data) - data.rindex(b"\n", 0, -1) - 1
            current.write_bytes(data[:-self.rng.randint(1, last - 1)])
            self.tears += 1


@pytest.mark.parametrize("game", range(GAMES // 2))
def test_a_torn_last_line_after_a_kill_is_dropped_reported_and_taken_again(tables, baseline, tmp_path,
                                                                           game):
    result, stations = baseline
    cuts = PowerCuts(SEED + 1 + game)
    kill_at = dealt(kill_points(stations, TEARS, SEED + 1), game, GAMES // 2)
    assert play_with_kills(tables, tmp_path, stations, kill_at, cuts) > 0
    assert outcome(tmp_path) == result
    assert cuts.reports == cuts.tears > 0


# From the game's end to SELECT on its result, every place a kill may hit, in order. The game
# is recorded as it ends (its end journaled, archived, in the history), so a kill anywhere here
# leaves it recorded once, and the restart shows the result until SELECT. A single kill is
# tried at each place where what is on disk differs (a torn end line is the tests' above).
AFTER_THE_END = ("over on disk", "noted as shown", "end written", "end synced", "archived",
                 "in history", "its line done", "wait", "press down", "press up", "select")
STAGES = ("synced", "noted", "written", "synced", "archived", "history", "ack", "ack", "ack",
          "ack", "ack")
KILLED_AT = ("over on disk", "noted as shown", "end synced", "archived", "in history", "press up")


@pytest.fixture(scope="module")
def before_the_end(tables, baseline, tmp_path_factory):
    """The game up to the line before its last move, played by a process that then ended:
    each single kill starts from a copy of it, so it plays only the last lines."""
    _, stations = baseline
    end = next(number for number, stage in stations if stage == "noted")
    state_dir = tmp_path_factory.mktemp("before_the_end")
    _, killed = run_once(tables, state_dir, stations, deque(), last=end - 1)
    assert not killed
    return state_dir, stations.index((end, "noted")) - 1


@pytest.mark.parametrize("killed_at", KILLED_AT)
def test_a_kill_between_the_end_and_select_records_the_game_once(tables, baseline, before_the_end,
                                                                 tmp_path, killed_at):
    result, stations = baseline
    played, first = before_the_end
    place = AFTER_THE_END.index(killed_at)
    assert [stage for _, stage in stations[first:]] == list(STAGES)
    shutil.copytree(played, tmp_path, dirs_exist_ok=True)
    seen_after_kill = []

    def after_run(state_dir: Path, process: Process, killed: bool) -> None:
        if killed and (state_dir / "archive").exists():
            with closing(open_history(state_dir)) as history:    # as `tabletop history` reads it
                seen_after_kill.append(len(history.games()))

    assert play_with_kills(tables, tmp_path, stations, deque([first + place]), after_run) == 1
    assert outcome(tmp_path) == result
    assert seen_after_kill == ([1] if place >= AFTER_THE_END.index("archived") else [])
