"""Tables and commands started by fork: each `tabletop ...` a process of its own (its own stdin,
stdout and stderr, its exit status, stopped by SIGSTOP, killed by kill -9 or by SIGPIPE), forked
from a process that has imported what its start imports, so each start costs the command's own
work and not the interpreter's start and the imports again (the crash tests start over forty
tables, the closed-pipe tests every command).

The server is `python -m tests.device.forked_tables FD [every]`: it imports the run path (with
`every`, every command's module too), then, for each request on the socket FD (the command
line, its folder and environment, with its standard streams as SCM_RIGHTS), forks a child that
runs `python -m device.cli`'s own `command()` on them and ends as that program ends (SystemExit
through the interpreter: atexit, flushed streams). As the child's parent it tells on the socket
when the child stops itself and how it ended, which only a parent can know (waitpid).
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MESSAGE = 4096            # what the server says
REQUEST = 1 << 18         # a command line with its environment
TIMEOUT_S = 120           # a command that never ends fails its test instead of hanging the suite
EVERY = "every"


class Forked:
    """One command started by the server: its pid, its stdin to write, its stderr to read."""

    def __init__(self, server: TableServer, pid: int, stdin: int, stderr: int) -> None:
        self.server, self.pid = server, pid
        self.stdin = os.fdopen(stdin, "wb")
        self.stderr = stderr
        self.returncode: int | None = None

    def stopped(self) -> bool:
        """Wait until the process stops itself (True) or ends (False)."""
        return self.server.status(self) == "stopped"

    def wait(self) -> int:
        """Its exit status, as subprocess gives it (a negative signal number if killed)."""
        while self.returncode is None:
            self.server.status(self)
        return self.returncode

    def communicate(self, timeout: float = 120) -> tuple[int, str]:
        """Its stdin closed, all it writes on stderr until it ends: its exit status and that."""
        self.stdin.close()
        said = b""
        try:
            while select.select([self.stderr], [], [], timeout)[0]:
                chunk = os.read(self.stderr, 65536)
                if not chunk:
                    return self.wait(), said.decode(errors="replace")
                said += chunk
            raise AssertionError(f"still running after {timeout} s; it said: {said[-500:]!r}")
        finally:
            os.close(self.stderr)


class TableServer:
    """The server's process; `start()` a command, `close()` once done with it."""

    def __init__(self, env: dict[str, str], every_command: bool = False) -> None:
        self.env = env
        self.current: Forked | None = None
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket.settimeout(TIMEOUT_S)
        with theirs:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.device.forked_tables", str(theirs.fileno()),
                 *([EVERY] if every_command else [])],
                pass_fds=[theirs.fileno()], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL)

    def start(self, argv: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None,
              stdout: int | None = None) -> Forked:
        """`tabletop ARGV` in `cwd` with `env` (the server's by default), stdin and stderr
        pipes of its own and `stdout` (a file descriptor; nothing by default). The server
        starts one at a time: one a failed test left running is killed first."""
        self.end_current()
        stdin_read, stdin_write = os.pipe()
        stderr_read, stderr_write = os.pipe()
        request = {"argv": argv, "cwd": str(cwd), "env": self.env if env is None else env}
        try:
            socket.send_fds(self.socket, [json.dumps(request).encode()],
                            [stdin_read, stderr_write, *([] if stdout is None else [stdout])])
        finally:
            os.close(stdin_read)
            os.close(stderr_write)
        pid = int(self._said("pid"))
        self.current = Forked(self, pid, stdin_write, stderr_read)
        return self.current

    def end_current(self) -> None:
        if self.current is not None and self.current.returncode is None:
            os.kill(self.current.pid, signal.SIGKILL)
            self.current.wait()

    def status(self, forked: Forked) -> str:
        """The next thing the server tells of `forked`: `stopped` or `ended`."""
        word, _, rest = self._message().partition(" ")
        assert word in ("stopped", "ended"), word
        if word == "ended":
            forked.returncode = int(rest)
        return word

    def _said(self, word: str) -> str:
        said, _, rest = self._message().partition(" ")
        assert said == word, (said, word)
        return rest

    def _message(self) -> str:
        data = self.socket.recv(MESSAGE)
        assert data, f"the table server ended: {self.proc.poll()}"
        return data.decode()

    def close(self) -> None:
        self.end_current()
        self.socket.close()                  # the server reads the end of its requests and exits
        assert self.proc.wait(timeout=60) == 0


def serve(fd: int) -> None:
    """Fork a command for each request; tell its stops and its end."""
    channel = socket.socket(fileno=fd)
    while True:
        try:
            data, fds, flags, _ = socket.recv_fds(channel, REQUEST, 3)
        except ConnectionResetError:
            return
        if not data:
            return
        assert not flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC), "a request cut short"
        pid = os.fork()
        if pid == 0:
            channel.close()
            run_command(json.loads(data), *fds)      # ends the child: never returns
        for given in fds:
            os.close(given)
        channel.send(f"pid {pid}".encode())
        while True:
            _, state = os.waitpid(pid, os.WUNTRACED)
            if os.WIFSTOPPED(state):
                channel.send(b"stopped")
                continue
            channel.send(f"ended {os.waitstatus_to_exitcode(state)}".encode())
            break


def run_command(request: dict, stdin: int, stderr: int, stdout: int | None = None) -> None:
    """In the child: what `python -m device.cli ARGV` does, on the request's streams. The
    interpreter's streams wrap file descriptors 0, 1 and 2, as a new process's do."""
    from device.cli import command
    for given, standard in ((stdin, 0), (stdout, 1), (stderr, 2)):
        if given is not None:
            os.dup2(given, standard)
            os.close(given)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [sys.argv[0], *request["argv"]]
    command()                              # SystemExit, as the program's own end
    sys.exit(0)


# What a table's start imports besides its games: the run command, the catalogs, the table's
# page (its server starts with the table, its join card's QR code), the font's file (read with
# importlib.resources, in ASCII) and the frames' images.
PRELOADED = ("device.cli", "device.cli.config", "device.cli.refusal", "device.cli.run",
             "device.sim.play", "device.ui.setup_lines", "device.texts.cli_en", "device.texts.cli_fr",
             "device.texts.ui_en", "device.texts.ui_fr", "device.texts.kiosk_en",
             "device.texts.kiosk_fr", "device.texts.web_en", "device.texts.web_fr",
             "device.texts.fleet_en", "device.texts.fleet_fr", "device.web.server",
             "device.web.serving", "device.web.guard", "uvicorn.server", "uvicorn.config",
             "uvicorn.lifespan.off", "uvicorn.protocols.http.h11_impl", "anyio.to_thread",
             "segno.encoder", "importlib.readers", "encodings.ascii", "PIL.ImageFile")


def preload(every_command: bool) -> None:
    """Import what a table's start imports: PRELOADED and the module of each game the registry
    finds (as device/cli/entry_points.py reads them; the registry itself is left unread); with
    `every_command`, each command's module too."""
    from device.cli.entry_points import VALUE, entry_points
    from device.cli.parser import COMMANDS
    games = [found["module"] for entry in entry_points("tabletop.games")
             if (found := VALUE.match(entry.value))]
    commands = [f"device.cli.{module}" for module, _ in COMMANDS.values()] if every_command else []
    for name in (*PRELOADED, *games, *commands):
        importlib.import_module(name)


if __name__ == "__main__":
    preload(sys.argv[2:] == [EVERY])
    gc.freeze()      # the collector leaves what is imported alone: no child copies its pages
    serve(int(sys.argv[1]))
