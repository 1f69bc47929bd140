"""One daemon per state dir: `tabletop run` holds an exclusive lock on `<state dir>/run.lock`.

Two daemons writing one journal would interleave their lines, so the second one is
refused. The lock file holds the owner's process id for the message. On a state dir
that cannot be written the lock file may not exist: the dir itself is locked then
(flock works on a read-only descriptor). Readers (status, history) take no lock.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

FILE = "run.lock"


class Locked(Exception):
    """Another process holds the state dir; `pid` is its id when it could be read, `process`
    what it is (its systemd unit and command line, as far as this process may see them)."""

    def __init__(self, pid: str | None) -> None:
        super().__init__(pid)
        self.pid = pid
        self.process = described(pid) if pid else None


def _descriptor(state_dir: Path) -> tuple[int, bool]:
    """The lock file opened for writing if possible (True), else read-only or the dir itself."""
    path = state_dir / FILE
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644), True
    except OSError:
        pass
    try:
        return os.open(path, os.O_RDONLY), False
    except OSError:
        return os.open(state_dir, os.O_RDONLY), False


def hold(state_dir: Path) -> int:
    """Lock the state dir for this process (the descriptor: the lock lasts while it is open);
    Locked if another process holds it, OSError if the dir cannot be opened at all."""
    fd, writable = _descriptor(state_dir)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Locked(_owner(state_dir)) from None
    if writable:
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass            # a full disk: the lock holds all the same, without its pid
    return fd


def holder(state_dir: Path) -> Locked | None:
    """Another process holding `state_dir`, found without making or keeping anything: a state
    dir with no lock file is held by no one."""
    try:
        fd = os.open(state_dir / FILE, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)     # flock takes a read-only descriptor
    except BlockingIOError:
        return Locked(_owner(state_dir))
    finally:
        os.close(fd)
    return None


def _owner(state_dir: Path) -> str | None:
    try:
        text = (state_dir / FILE).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return text if text.isdigit() else None


SHOWN = 80               # characters of a command line told: enough to tell one run from another


def described(pid: str, proc: Path = Path("/proc")) -> str | None:
    """`tabletop.service: tabletop run --sim`, or less when less can be read; None if nothing."""
    try:
        words = (proc / pid / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    command = " ".join(w.decode("utf-8", "replace") for w in words if w)
    command = "".join(c if c.isprintable() else "?" for c in command)
    if len(command) > SHOWN:
        command = command[:SHOWN - 1] + "…"
    unit = _unit(proc / pid / "cgroup")
    return f"{unit}: {command}" if unit and command else unit or command or None


def _unit(cgroup: Path) -> str | None:
    """The systemd service the process runs in, if any (the last `.service` of its cgroup)."""
    try:
        text = cgroup.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    units = [part for line in text.splitlines() for part in line.rpartition(":")[2].split("/")
             if part.endswith(".service") and part.isprintable() and len(part) <= 64]
    return units[-1] if units else None
