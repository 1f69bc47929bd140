"""Storage faults: what the screen acknowledged is on disk, whatever the disk does.

A whole Palourde game (the crash suite's input) is played while the disk refuses
writes at seeded points: an injected ENOSPC (half the bytes land first), a real
tmpfs filled to the brim (as root), a read-only bind mount (as root). A refused
input is repeated once the disk works again, as a player would. After every input
the journal on disk holds every acknowledged operation and no other; at the end
every one is in the archived journal and the history, and the game is the
uninterrupted one; halfway, the table is closed and resumed from disk.

A full tmpfs still takes an append that fits in the journal's last page, so its runs
give the players names long enough for the journal to cross pages during the game
(seeded, then lengthened until the page edge falls inside a tap's line), and fail the disk
before every tap: the appends that need a new
page, and the header of a game started on the full disk, are refused for real.
"""
from __future__ import annotations

import errno
import io
import json
import os
import random
import subprocess
import sys
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from device.cli import main
from device.plugin import Plugin
from device.storage import journal
from device.storage.history import open_history
from device.storage.lock import described
from device.storage.status import status

from .forked_tables import ROOT
from .table import SimTable
from .test_crash import GAME

SEED = 20240518
PLAYERS = "Ann,Bob,Cy"
FIGURES: dict[str, dict[str, int]] = {}     # run: refusals, acknowledged, found where


class Acks(Plugin):
    """Counts the operations the app acknowledged (accepted answers)."""

    def __init__(self) -> None:
        self.count = 0

    def on_outcome(self, app, outcome) -> None:
        self.count += outcome.accepted


def archived_game(state_dir: Path) -> dict:
    """The archived journal's operations (without ids, clocks and input numbers), its status
    and its history row."""
    (archived,) = (state_dir / "archive").glob("*.jsonl")
    ops = [{k: v for k, v in json.loads(line).items() if k not in ("at", "elapsed", "in")}
           for line in archived.read_text().splitlines()[1:]]
    with closing(open_history(state_dir)) as history:
        games = [(g.game, g.players, g.events) for g in history.games()]
    return {"ops": ops, "status": status(state_dir), "history": games}


def uninterrupted(state_dir: Path, players: str = PLAYERS) -> dict:
    SimTable(state_dir).start("palourde", players).run("\n".join(GAME))
    return archived_game(state_dir)


def in_journal(state_dir: Path) -> int:
    """The operations the game's journal on disk holds (the archived one once it ended)."""
    current = state_dir / "current.jsonl"
    path = current if current.exists() else max((state_dir / "archive").glob("*.jsonl"))
    return sum(record["op"] != "end" for record in journal.read(path).records)


def play_through(state_dir: Path, disk, faulty: set[int], resume_at: int,
                 players: str = PLAYERS, full_at_start: bool = False) -> tuple[int, int]:
    """Play GAME with the disk failing before each line of `faulty` (and at the start if
    `full_at_start`); a line the table refused (its storage fault up) is played again once
    the disk is back. After each line the journal holds what was acknowledged.
    (refusals, lines refused on a journal already there, acknowledged)"""
    if full_at_start:
        disk.fail()
    table, acks, refusals, appends = SimTable(state_dir).start("palourde", players), Acks(), 0, 0
    table.app.attach(acks)
    for n, line in enumerate(GAME):
        if n == resume_at:                    # the table stops and starts again from disk
            table.app.store.close()
            table = SimTable(state_dir)
            table.app.attach(acks)
            table.app.resume_game()
        if n == len(GAME) - 1:
            read_to_the_end(table)
        if n in faulty or (full_at_start and n == 0):
            disk.fail()
        table.run(line)
        if n in faulty or (full_at_start and n == 0):
            refused = "disk" in table.app.faults
            assert table.app.faults.get("disk") is None or table.screen.header_right == "Disk fault!"
            disk.heal()
            if refused:
                refusals += 1
                appends += (state_dir / "current.jsonl").exists()    # not a header: a line
                table.run("wait 6")           # the device tries the disk again by itself
                assert "disk" not in table.app.faults
                table.run(line)
        assert in_journal(state_dir) == acks.count, f"after line {n + 1}: {line}"
    assert table.app.session is None and not (state_dir / "current.jsonl").exists()
    return refusals, appends, acks.count


def read_to_the_end(table: SimTable) -> None:
    """Turn what is left of a message over the result, a press a page, as a player does before
    the SELECT that leaves it: with long names the game's last instruction (who takes the
    Golden Clam) takes more pages than the presses the game gives it, each staying until a
    press turns it."""
    while table.app.overlay is not None:
        left = len(table.app.overlay.pages)
        table.run("press select")
        assert table.app.overlay is None or len(table.app.overlay.pages) < left


def check_run(name: str, state_dir: Path, disk, baseline: dict, seed: int,
              players: str = PLAYERS, every_tap: bool = False) -> None:
    rng = random.Random(seed)
    # Faults before taps and before the last press (which leaves the result the last tap
    # recorded): a tap is repeated as it was; an operation chosen in a menu is repeated
    # through its menu, not one press.
    taps = [n for n, line in enumerate(GAME) if line.startswith("tap ")]
    faulty = set(taps if every_tap else rng.sample(taps, 8)) | {len(GAME) - 1}
    # Resumed between two taps: a restart shows the game, not a menu that was open.
    resume_at = rng.choice([n for n in taps if n - 1 in taps])
    refusals, appends, acknowledged = play_through(state_dir, disk, faulty, resume_at, players,
                                                   full_at_start=every_tap)
    result = archived_game(state_dir)
    FIGURES[name] = {"refusals": refusals, "appends refused": appends,
                     "acknowledged": acknowledged,
                     "in archive": sum(op["op"] != "end" for op in result["ops"]),
                     "in history": result["history"][0][2]}   # its moves: an undo takes one back
    assert appends > 0
    # every acknowledged operation, and no other, in the archive; the history's game is the
    # uninterrupted one, with as many moves
    assert FIGURES[name]["in archive"] == acknowledged == len(baseline["ops"]) - 1
    assert FIGURES[name]["in history"] == baseline["history"][0][2]
    print(f"storage faults {name}: {FIGURES[name]}")      # the closing note's figures (-s)
    assert result == baseline


class InjectedFull:
    """ENOSPC after half the bytes, on every journal write and probe while failing."""

    def __init__(self, monkeypatch) -> None:
        self.failing = False
        real_write, real_atomic = journal._write_all, journal.write_atomic

        def write(fd, data):
            if self.failing:
                real_write(fd, data[:len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")
            real_write(fd, data)

        def atomic(path, text):
            if self.failing:
                raise OSError(errno.ENOSPC, "No space left on device")
            real_atomic(path, text)
        monkeypatch.setattr(journal, "_write_all", write)
        monkeypatch.setattr(journal, "write_atomic", atomic)
        from device.storage import store
        monkeypatch.setattr(store, "write_atomic", atomic)

    def fail(self) -> None:
        self.failing = True

    def heal(self) -> None:
        self.failing = False


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    return uninterrupted(tmp_path_factory.mktemp("uninterrupted"))


@pytest.mark.parametrize("seed", range(SEED, SEED + 4))
def test_an_injected_full_disk_loses_no_acknowledged_operation(baseline, tmp_path, monkeypatch,
                                                                 seed):
    check_run(f"injected-{seed}", tmp_path, InjectedFull(monkeypatch), baseline, seed)


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@contextmanager
def mounted_tmpfs(where: Path, size: str):
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    where.mkdir()
    try:
        mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where))
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


class FilledTmpfs:
    """A real full disk: a filler file takes every free block of the tmpfs."""

    def __init__(self, root: Path) -> None:
        self.filler = root / "filler"

    def fail(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for size in (65536, 4096, 1):          # big blocks, then whatever is left
                try:
                    while True:
                        os.write(fd, b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
        finally:
            os.close(fd)

    def heal(self) -> None:
        self.filler.unlink()


PAGE = 4096             # a tmpfs takes an append that fits in the page the file already ends in
MARGIN = 40             # bytes either side of the page edge: a repeated input's number may grow


def tap_spans(state_dir: Path) -> list[tuple[int, int]]:
    """Where each tap's line lies in the archived journal, in bytes."""
    (archived,) = (state_dir / "archive").glob("*.jsonl")
    spans, start = [], 0
    for line in archived.read_bytes().splitlines(keepends=True):
        if b'"type": "tap"' in line:
            spans.append((start, start + len(line)))
        start += len(line)
    return spans


def crossing_names(where: Path, seed: int) -> tuple[str, dict]:
    """Three players whose names make the header long enough for the journal (2.7 kB with
    short names) to cross its first page edge inside a tap's line, at a seeded place, and the
    uninterrupted game with them. The names are only in the header: a letter more in each
    moves every line by 3 bytes."""
    length = random.Random(seed).randrange(150, 600)
    names = lambda n: ",".join(name * n for name in ("A", "B", "C"))     # noqa: E731
    spans = tap_spans_of(where / "probe", names(length))
    shift = next(d for d in range(PAGE // 3 + 1)
                 if any((start + 3 * d + MARGIN) // PAGE < (end + 3 * d - MARGIN) // PAGE
                        for start, end in spans))
    players = names(length + shift)
    baseline = uninterrupted(where / "uninterrupted", players)
    assert any((start + MARGIN) // PAGE < (end - MARGIN) // PAGE
               for start, end in tap_spans(where / "uninterrupted"))
    return players, baseline


def tap_spans_of(state_dir: Path, players: str) -> list[tuple[int, int]]:
    uninterrupted(state_dir, players)
    return tap_spans(state_dir)


@pytest.mark.parametrize("seed", (SEED + 10, SEED + 11, SEED + 14))
def test_a_real_full_filesystem_loses_no_acknowledged_operation(tmp_path, seed):
    with mounted_tmpfs(tmp_path / "disk", "512k") as root:
        players, baseline = crossing_names(tmp_path, seed)
        check_run(f"tmpfs-{seed}", root / "state", FilledTmpfs(root), baseline, seed, players,
                  every_tap=True)


class ReadOnlyBind:
    """The state dir remounted read-only under the table, then writable again."""

    def __init__(self, where: Path) -> None:
        self.where = where

    def fail(self) -> None:
        mount("-o", "remount,bind,ro", str(self.where))

    def heal(self) -> None:
        mount("-o", "remount,bind,rw", str(self.where))


@contextmanager
def bound(source: Path, where: Path):
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    source.mkdir()
    where.mkdir()
    try:
        mount("--bind", str(source), str(where))
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot bind mount here: {exc}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_game_on_a_read_only_state_dir_is_shown_and_resumes_once_writable(tmp_path):
    with bound(tmp_path / "real", tmp_path / "state") as state:
        SimTable(state).start("palourde", PLAYERS).run("tap clam#1\ntap clam#2").app.store.close()
        saved = (state / "current.jsonl").read_bytes()
        ReadOnlyBind(state).fail()
        table = SimTable(state)
        table.app.resume_game()                    # no traceback: the game, as it stands
        assert table.app.session is not None and len(table.app.session.events) == 2
        assert table.screen.header_right == "Disk fault!"
        table.run("tap crab#1")
        assert len(table.app.session.events) == 2 and table.screen.lines[0] == "Not saved:"
        assert (state / "current.jsonl").read_bytes() == saved
        ReadOnlyBind(state).heal()
        table.run("wait 6\ntap crab#1")
        assert "disk" not in table.app.faults and len(table.app.session.events) == 3
        assert len(journal.read(state / "current.jsonl").records) == 3


def test_an_end_the_disk_refuses_keeps_the_game_unarchived(tmp_path, monkeypatch):
    table = SimTable(tmp_path).start("palourde", PLAYERS).run("tap clam#1")
    disk = InjectedFull(monkeypatch)
    disk.fail()
    table.app.end_game(abandoned=True)
    assert table.app.session is not None and not (tmp_path / "archive").exists()
    assert len(journal.read(tmp_path / "current.jsonl").records) == 1
    disk.heal()
    table.app.end_game(abandoned=True)
    assert table.app.session is None and len(list((tmp_path / "archive").glob("*"))) == 1


def test_a_second_run_on_a_state_dir_exits_1_naming_the_first(tmp_path, monkeypatch, capsys):
    """Said first, before anything else it could say: with --game over an unfinished game, or
    with a config it cannot read. The first run is a process of its own; the second, and the
    status beside it, are the command's main() in the test's process."""
    env = {**os.environ, "TABLETOP_SIM_ACK": "1"}
    command = [sys.executable, "-m", "device.cli", "run", "--sim", "--state-dir", str(tmp_path)]
    first = subprocess.Popen([*command, "--game", "palourde", "--players", "Ann,Bob"], cwd=ROOT,
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        first.stdin.write("wait 1\n")
        first.stdin.flush()
        while not (said := first.stderr.readline()).startswith("ack "):
            assert said, "the first run ended before it handled its line"   # not a hang
        assert (tmp_path / "current.jsonl").exists()          # it holds the lock from its start
        bad_config = tmp_path / "broken.toml"
        bad_config.write_text("[display\n")
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        for more in ([], ["--game", "palourde", "--players", "Ann,Bob"],
                     ["--config", str(bad_config)]):
            assert main([*command[3:], *more]) == 1, more
            [line] = capsys.readouterr().err.strip().splitlines()
            assert line.startswith(f"tabletop: {tmp_path} is in use by another tabletop run "
                                   f"(process {first.pid}: ")
            assert "device.cli run --sim" in line and line.endswith("stop it first")
        assert main(["status", "--state-dir", str(tmp_path)]) == 0
        beside = capsys.readouterr()
        assert "palourde" in beside.out.lower() and beside.err == ""    # reads, unlocked
    finally:
        first.stdin.close()
        first.wait(timeout=60)
    assert first.returncode == 0


def test_the_process_holding_a_table_is_described_as_far_as_it_can_be_read(tmp_path):
    proc = tmp_path / "proc"
    (proc / "42").mkdir(parents=True)
    assert described("42", proc) is None
    (proc / "42" / "cmdline").write_bytes(b"/usr/bin/python3\0/usr/bin/tabletop\0run\0")
    assert described("42", proc) == "/usr/bin/python3 /usr/bin/tabletop run"
    (proc / "42" / "cgroup").write_text("0::/system.slice/tabletop.service\n")
    assert described("42", proc) == "tabletop.service: /usr/bin/python3 /usr/bin/tabletop run"
    (proc / "42" / "cmdline").write_bytes(b"x\x1b[2J\0" + b"y" * 500)
    said = described("42", proc)
    assert "\x1b" not in said and len(said) <= len("tabletop.service: ") + 80


def test_commands_that_write_exit_1_with_one_line_on_a_read_only_state_dir(tmp_path, capsys):
    with bound(tmp_path / "real", tmp_path / "state") as state:
        ReadOnlyBind(state).fail()
        for command in (["cards", "install", str(ROOT / "engine" / "games" / "flouk" / "deck.toml")],
                        ["deck", "staff", "add", "04AABBCC", "Zoe"]):
            code, said = main([*command, "--state-dir", str(state)]), capsys.readouterr().err
            assert code == 1, said
            (line,) = said.strip().splitlines()
            assert line.startswith("tabletop: cannot write ") and "Read-only file system" in line
        assert list((tmp_path / "real").iterdir()) == []
