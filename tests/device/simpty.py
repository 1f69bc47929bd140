"""`tabletop run --sim` in a pseudo-terminal of a given size, read as a person reads it.

The process gets the pty as its controlling terminal, so Ctrl-C and a resize reach it as
they would from a terminal window; what it writes goes through a terminal emulator (pyte),
and `rows` is what the window shows. The simulator's `ack N` lines (TABLETOP_SIM_ACK) say
when a typed line is handled; they are taken out before the emulator sees the output.
"""
from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import textwrap
from collections.abc import Callable
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parents[2]
ACK = re.compile(rb"ack (\d+)\r\n")
TEXT_VIEW = re.compile(r"^\|.{21}\|")           # the screen's header row, as text
FRAME_END = re.compile(r"^\|.{21}\|.*\n(?:.*\n){4}", re.M)    # a text view, all five rows out
TIMEOUT_S = 30                                  # a process that says nothing for this long is stuck


class PtySim:
    def __init__(self, state_dir: Path, *args: str, size=(80, 24), before: tuple = ()) -> None:
        self.master, slave = os.openpty()
        self.size = size
        self._set_size(slave, size)
        # COLUMNS and LINES as a shell exports them once: stale after a resize, so the
        # simulator must ask the terminal itself
        env = {**os.environ, "TABLETOP_SIM_ACK": "1", "LC_ALL": "C.UTF-8", "TERM": "xterm",
               "COLUMNS": "200", "LINES": "60"}
        env.pop("LANGUAGE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "device.cli", *before, "run", "--sim",
             "--state-dir", str(state_dir), *args],
            cwd=ROOT, env=env, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, preexec_fn=_take_terminal)
        os.close(slave)
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""             # all output, acks taken out
        self._pending = b""        # output not yet past a line end: it may hold half an ack
        self.acked = 0
        self.typed = 0

    # ---- reading ------------------------------------------------------------------------

    def _read(self) -> bool:
        """One chunk of output into the emulator; False at the end of output."""
        ready, _, _ = select.select([self.master], [], [], TIMEOUT_S)
        assert ready, f"the simulator fell silent; the window shows:\n{self.window()}"
        try:
            chunk = os.read(self.master, 65536)
        except OSError:            # EIO: the process closed its terminal
            chunk = b""
        self._pending += chunk
        cut = self._pending.rfind(b"\n") + 1 if chunk else len(self._pending)
        done, self._pending = self._pending[:cut], self._pending[cut:]
        for number in ACK.findall(done):
            self.acked = int(number)
        done = ACK.sub(b"", done)
        self.raw += done
        self.stream.feed(done)
        return bool(chunk)

    def until(self, found, what: str) -> None:
        """Read until `found()` holds."""
        while not found():
            assert self._read(), f"the simulator ended before {what}:\n{self.window()}"

    def frames(self) -> int:
        """How many frames (their text views written out in full) came so far."""
        return len(FRAME_END.findall(self.raw.decode("utf-8", "replace").replace("\r", "")))

    def first_frame(self) -> PtySim:
        self.until(lambda: self.frames() > 0, "its first frame")
        return self

    def end(self) -> int:
        """Read to the end of output; the exit status."""
        while self._read():
            pass
        return self.proc.wait(timeout=TIMEOUT_S)

    # ---- typing -------------------------------------------------------------------------

    def type(self, lines: str) -> PtySim:
        """Each line typed and Enter, the next once the simulator has handled it."""
        for line in textwrap.dedent(lines).strip("\n").splitlines():
            os.write(self.master, line.encode() + b"\n")
            self.typed += 1
            self.until(lambda: self.acked >= self.typed, f"it handled {line!r}")
        return self

    def key(self, control: bytes) -> None:
        """A control key as the terminal sends it: b"\\x03" Ctrl-C, b"\\x04" Ctrl-D."""
        os.write(self.master, control)

    def resize(self, size: tuple[int, int], drawn: Callable[[list[str]], bool]) -> None:
        """The window takes a new size, as a terminal window does (the kernel sends the
        process SIGWINCH); then read until `drawn(rows)` says the new frame is out. Only what
        came after the resize counts: pyte shrinks a screen by its top rows, and the frame it
        already shows, moved up, may look like the one wanted."""
        self.size = size
        self.screen.resize(lines=size[1], columns=size[0])
        self.screen.ensure_vbounds()            # pyte leaves the cursor below a shrunk screen
        self._set_size(self.master, size)
        before = len(self.raw)
        self.until(lambda: len(self.raw) > before and drawn(self.rows()),
                   f"it drew the frame again at {size}")

    @staticmethod
    def _set_size(fd: int, size: tuple[int, int]) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))

    # ---- what the window shows ----------------------------------------------------------

    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def window(self) -> str:
        return "\n".join(self.rows())

    def text_view(self) -> list[str]:
        """The last text view the window shows: the header row and the four below it."""
        rows = self.rows()
        starts = [n for n, row in enumerate(rows) if TEXT_VIEW.match(row)]
        if not starts or starts[-1] + 5 > len(rows):
            return []
        return [row[:26].rstrip() for row in rows[starts[-1]:starts[-1] + 5]]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _take_terminal() -> None:
    """In the child, after setsid: the pty on standard input becomes its terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


SCORE_ROW = re.compile(r"^[ >] (\d+) (\S+) +(\S+)(?: [v^])?$")   # "  2 P1 14 v": rank, name, score


def final_scores(state_dir: Path, lines: str) -> tuple[list[str], dict[str, str]]:
    """A whole game typed into an 80x24 window, then DOWN until the game-over list shows
    its last line: the first text view, and every score the list showed."""
    sim = PtySim(state_dir)
    try:
        first = view = sim.first_frame().type(lines).text_view()
        scores: dict[str, str] = {}
        for _ in range(10):
            scores |= {m[2]: m[3] for m in map(SCORE_ROW.match, view[1:]) if m}
            if not any(row.endswith(" v") for row in view):
                return first, scores
            view = sim.type("press down").text_view()
        raise AssertionError(f"the list never came to its end: {view}")
    finally:
        sim.close()
