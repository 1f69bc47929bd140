"""Storage faults: what the screen acknowledged is on disk, whatever the disk does.

A whole Palourde game (the crash suite's input) is played while the disk refuses
writes at seeded points: an injected ENOSPC (half the bytes land first), a real
tmpfs filled to the brim (as root), a read-only bind mount (as root). A refused
input is repeated once the disk works again, as a player would. At the end every
acknowledged operation is in the archived journal and the history, and the game
is the uninterrupted one; halfway, the table is closed and resumed from disk.
"""
from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from device.plugin import Plugin
from device.storage import journal
from device.storage.history import open_history
from device.storage.status import status

from .table import Table
from .test_crash import GAME, ROOT

SEED = 20240518
PLAYERS = "Ann,Bob,Cy"
FIGURES: dict[str, tuple[int, int, int]] = {}     # run: (refusals, acknowledged, found)


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
    ops = [{k: v for k, v in json.loads(line).items() if k not in ("at", "in")}
           for line in archived.read_text().splitlines()[1:]]
    with closing(open_history(state_dir)) as history:
        games = [(g.game, g.players, g.events) for g in history.games()]
    return {"ops": ops, "status": status(state_dir), "history": games}


def uninterrupted(state_dir: Path) -> dict:
    Table(state_dir).start("palourde", PLAYERS).run("\n".join(GAME))
    return archived_game(state_dir)


def play_through(state_dir: Path, disk, faulty: set[int], resume_at: int) -> tuple[int, int]:
    """Play GAME with the disk failing before each line of `faulty`; a line the table refused
    (its storage fault up) is played again once the disk is back. (refusals, acknowledged)"""
    table, acks, refusals = Table(state_dir).start("palourde", PLAYERS), Acks(), 0
    table.app.plugins.append(acks)
    for n, line in enumerate(GAME):
        if n == resume_at:                    # the table stops and starts again from disk
            table.app.store.close()
            table = Table(state_dir)
            table.app.plugins.append(acks)
            table.app.resume_game()
        if n in faulty:
            disk.fail()
        table.run(line)
        if n in faulty:
            refused = "disk" in table.app.faults
            assert table.app.faults.get("disk") is None or table.screen.header_right == "Disk fault!"
            disk.heal()
            if refused:
                refusals += 1
                table.run("wait 6")           # the device tries the disk again by itself
                assert "disk" not in table.app.faults
                table.run(line)
    assert table.app.session is None and not (state_dir / "current.jsonl").exists()
    return refusals, acks.count


def check_run(name: str, state_dir: Path, disk, baseline: dict, seed: int,
              must_refuse: bool = True) -> None:
    rng = random.Random(seed)
    # Faults before taps and before the last press (which ends the game): a tap is repeated
    # as it was; an operation chosen in a menu is repeated through its menu, not one press.
    taps = [n for n, line in enumerate(GAME) if line.startswith("tap ")]
    faulty = set(rng.sample(taps, 8)) | {len(GAME) - 1}
    # Resumed between two taps: a restart shows the game, not a menu that was open.
    resume_at = rng.choice([n for n in taps if n - 1 in taps])
    refusals, acknowledged = play_through(state_dir, disk, faulty, resume_at)
    result = archived_game(state_dir)
    found = sum(op["op"] != "end" for op in result["ops"])
    FIGURES[name] = (refusals, acknowledged, found)
    assert refusals > 0 or not must_refuse
    assert found == acknowledged                  # every acknowledged operation, and no other
    assert result["history"][0][2] == baseline["history"][0][2]
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


@pytest.mark.parametrize("seed", range(SEED + 10, SEED + 12))
def test_a_real_full_filesystem_loses_no_acknowledged_operation(baseline, tmp_path, seed):
    with mounted_tmpfs(tmp_path / "disk", "512k") as root:
        # A full tmpfs still takes appends inside the journal's last page: those are
        # saved for real, so a run may see fewer refusals than faults.
        check_run(f"tmpfs-{seed}", root / "state", FilledTmpfs(root), baseline, seed,
                  must_refuse=False)


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
        Table(state).start("palourde", PLAYERS).run("tap clam#1\ntap clam#2").app.store.close()
        saved = (state / "current.jsonl").read_bytes()
        ReadOnlyBind(state).fail()
        table = Table(state)
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
    table = Table(tmp_path).start("palourde", PLAYERS).run("tap clam#1")
    disk = InjectedFull(monkeypatch)
    disk.fail()
    table.app.end_game(abandoned=True)
    assert table.app.session is not None and not (tmp_path / "archive").exists()
    assert len(journal.read(tmp_path / "current.jsonl").records) == 1
    disk.heal()
    table.app.end_game(abandoned=True)
    assert table.app.session is None and len(list((tmp_path / "archive").glob("*"))) == 1


def test_a_second_run_on_a_state_dir_exits_1_naming_the_first(tmp_path):
    env = {**os.environ, "TABLETOP_SIM_ACK": "1"}
    command = [sys.executable, "-m", "device.cli", "run", "--sim", "--state-dir", str(tmp_path)]
    first = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first.stdin.write("wait 1\n")
        first.stdin.flush()
        while not first.stderr.readline().startswith("ack "):
            pass                                   # the first holds the lock from its start
        second = subprocess.run(command, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 1
        assert second.stderr.strip().splitlines() == [
            f"tabletop: {tmp_path} is in use by another tabletop run (process {first.pid})"]
        beside = subprocess.run([sys.executable, "-m", "device.cli", "status", "--state-dir",
                                 str(tmp_path)], cwd=ROOT, capture_output=True, timeout=60)
        assert b"No game in" in beside.stdout and beside.stderr == b""    # reads, unlocked
    finally:
        first.stdin.close()
        first.wait(timeout=60)
    assert first.returncode == 0


def test_report_figures():
    """The figures the closing note gives (printed with -s): refusals, acknowledged, found."""
    for name, (refusals, acknowledged, found) in FIGURES.items():
        print(f"storage faults {name}: {refusals} refusals, {acknowledged} acknowledged, "
              f"{found} found")
    assert all(acknowledged == found for _, acknowledged, found in FIGURES.values())


def test_commands_that_write_exit_1_with_one_line_on_a_read_only_state_dir(tmp_path):
    with bound(tmp_path / "real", tmp_path / "state") as state:
        ReadOnlyBind(state).fail()
        for command in (["cards", "install", str(ROOT / "seeds" / "flouk.toml")],
                        ["deck", "staff", "add", "04AABBCC", "Zoe"]):
            done = subprocess.run([sys.executable, "-m", "device.cli", *command, "--state-dir",
                                   str(state)], cwd=ROOT, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 1, done.stderr
            (line,) = done.stderr.strip().splitlines()
            assert line.startswith("tabletop: cannot write ") and "Read-only file system" in line
        assert list((tmp_path / "real").iterdir()) == []
