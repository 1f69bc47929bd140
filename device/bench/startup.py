"""Start-up to first frame and peak memory of `tabletop run --sim`, each run a fresh process.

The first frame is the first PNG the simulator writes into its --frames folder; its time
is counted from the spawn. Every run finds the modules' bytecode compiled, as an
installed package has it: a first, untimed run writes what is missing beside the sources,
as Python does (whatever PYTHONDONTWRITEBYTECODE says; the standard library's and the
installed packages' are there already), the page's modules too, as it waits for the page
to serve (it starts after the first frame; a module compiled in the measured run costs its
peak 5 MB more). One more run plays a whole scripted game, so
the peak covers a game, not only the start. The peak is the kernel's VmHWM of the
process, read once it has handled its last line: a child's ru_maxrss would count the
bench's own memory, which the child shares until it runs `tabletop`.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from device.web.address import STATUS_FILE

FIRST_FRAME = "frame_00001.png"
TIMEOUT_S = 60.0
PAGE_S = 20.0               # the page serves within this of the first frame, or is off


@dataclass
class StartUps:
    first_frame_s: list[float]
    peak_rss_mb: float


def tabletop_command() -> list[str]:
    """The installed `tabletop` script beside this interpreter, or the module."""
    script = Path(sys.executable).with_name("tabletop")
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


def start_ups(directory: Path, runs: int, game_args: list[str], script: list[str]) -> StartUps:
    """A compiling run, `runs` timed start-ups on an empty state dir, then the scripted game
    (`tabletop run --sim` arguments and input lines)."""
    env = dict(os.environ, TABLETOP_SIM_ACK="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    _run(directory / "compile", [], [], env, page=True)
    timed = [_run(directory / f"start-{n}", [], [], env) for n in range(runs)]
    game = _run(directory / "game", game_args, script, env)
    return StartUps([seconds for seconds, _ in timed],
                    max(kib for _, kib in [*timed, game]) / 1024)


def _run(directory: Path, args: list[str], script: list[str], env: dict,
         page: bool = False) -> tuple[float, int]:
    """Seconds from spawn to the first frame, and the process's peak RSS in KiB; with `page`,
    once the first frame is out, the table's page is waited for too."""
    frames = directory / "frames"
    command = [*tabletop_command(), "run", "--sim", "--state-dir", str(directory / "state"),
               "--frames", str(frames), *args]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
    try:
        seconds = _first_frame(process, frames / FIRST_FRAME, start)
        if page:
            _page_served(process, directory / "state" / STATUS_FILE)
        for line in script:
            _feed(process, line)
        peak = _peak_kib(process.pid)
    except RuntimeError as exc:
        process.kill()
        raise RuntimeError(f"{exc}: {process.communicate()[1].decode()[-500:]}") from None
    _, errors = process.communicate()              # end of input: the simulator stops
    if process.returncode != 0:
        raise RuntimeError(f"bench: {' '.join(command)} failed: {errors.decode()[-500:]}")
    shutil.rmtree(frames)
    return seconds, peak


def _first_frame(process: subprocess.Popen, first: Path, start: float) -> float:
    while not first.exists():
        if process.poll() is not None:
            raise RuntimeError("bench: tabletop run --sim ended before its first frame")
        if time.perf_counter() - start > TIMEOUT_S:
            raise RuntimeError(f"bench: no frame from tabletop run --sim in {TIMEOUT_S:.0f} s")
        time.sleep(0.001)         # a file in a folder: no event to wait on, so poll finely
    return time.perf_counter() - start


def _page_served(process: subprocess.Popen, told: Path) -> None:
    """Until the page says its address (device/web/address.py): its modules are in. A page
    that is off (by the config) or fails is not waited for past PAGE_S."""
    start = time.perf_counter()
    while not told.exists() and process.poll() is None and time.perf_counter() - start < PAGE_S:
        time.sleep(0.01)


def _feed(process: subprocess.Popen, line: str) -> None:
    """One input line, then wait for the simulator's `ack` of it (TABLETOP_SIM_ACK)."""
    assert process.stdin is not None and process.stderr is not None     # opened as pipes
    process.stdin.write(f"{line}\n".encode())
    process.stdin.flush()
    while not (said := process.stderr.readline()).startswith(b"ack "):
        if not said:
            raise RuntimeError("bench: tabletop run --sim ended in the middle of its input")


def _peak_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])


# The command line's own start-up: what every `tabletop ...` pays before it does anything,
# beside the interpreter's (a bare `python -c pass`), each run a fresh process: `--version`,
# `status` with no game and with a game in progress, `guide rules` (every game's rules) and
# `history` (of the state dir with the game in progress).
COMMANDS = {"python": ["-c", "pass"], "version": ["--version"], "status": ["status"],
            "status_game": ["status"], "guide_rules": ["guide", "rules"], "history": ["history"]}
IN_PROGRESS = ["--game", "palourde", "--players", "Ann,Bea"]     # `run --sim` stops at its input's end
# A game in progress has moves: `status` replays them (a game only set up replays nothing).
FIRST_MOVES = b"tap clam#1\ntap clam#2\n"


def command_starts(directory: Path, runs: int) -> dict[str, float]:
    """Median milliseconds of `python -c pass` and of each of COMMANDS (the first `status` on an
    empty state dir, the others on one with a game in progress), taken in turns so that a busy
    moment of the machine weighs on each."""
    env = dict(os.environ)          # the bytecode beside the sources, as start_ups reads it
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    empty, playing = directory / "state", directory / "playing"
    subprocess.run([*tabletop_command(), "run", "--sim", "--state-dir", str(playing), *IN_PROGRESS],
                   input=FIRST_MOVES, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                   env=env, timeout=TIMEOUT_S, check=True)
    where = {"status": empty, "status_game": playing, "history": playing}
    lines = {name: [sys.executable, *argv] if name == "python" else
             [*tabletop_command(), *argv, *(["--state-dir", str(where[name])] if name in where else [])]
             for name, argv in COMMANDS.items()}
    seconds: dict[str, list[float]] = {name: [] for name in lines}
    for turn in range(runs + 1):            # the first turn compiles the bytecode: not counted
        for name, command in lines.items():
            start = time.perf_counter()
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, env=env, timeout=TIMEOUT_S)
            if done.returncode not in (0, 1):      # status: 1, no game yet
                raise RuntimeError(f"bench: {' '.join(command)} failed: {done.stderr.decode()[-500:]}")
            if turn:
                seconds[name].append(time.perf_counter() - start)
    return {name: round(1000 * statistics.median(taken), 1) for name, taken in seconds.items()}
