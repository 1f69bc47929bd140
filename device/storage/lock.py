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
    """Another process holds the state dir; `pid` is its id when it could be read."""

    def __init__(self, pid: str | None) -> None:
        super().__init__(pid)
        self.pid = pid


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


def _owner(state_dir: Path) -> str | None:
    try:
        text = (state_dir / FILE).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return text if text.isdigit() else None
