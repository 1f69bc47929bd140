"""Where the device's log lines go and how they look.

Under systemd the service's stderr is a stream into the journal, and systemd says
so in JOURNAL_STREAM ("device:inode" of that stream, sd-daemon(3)). A line written
there may start with `<N>`, its syslog priority, so `journalctl -p warning` keeps
the warnings and drops ordinary progress. Anywhere else (a terminal, a pipe, a
file) lines are written as `LEVEL logger: message`, with no prefix. The simulator on a
terminal sends them to a file instead (`to_file`): its terminal is the table's screen.

No storm fills the log: each kind of line (its logger and template) is written at most
HUSH_LINES times a minute; the ones held back are counted, and the next one written says
how many (a flood of refused messages is a few lines a minute, not thousands a second).
"""
from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")     # the config's log_level
PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6,
            logging.DEBUG: 7}


def priority(levelno: int) -> int:
    """The syslog priority of a logging level: the one of the nearest level at or below it."""
    return next((PRIORITY[level] for level in sorted(PRIORITY, reverse=True) if levelno >= level), 7)


def is_journal(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """True when `stream` is the journal stream JOURNAL_STREAM names (same device and inode)."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        found = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):      # closed, or not backed by a descriptor
        return False
    return (found.st_dev, found.st_ino) == (int(device), int(inode))


class JournalFormatter(logging.Formatter):
    """Each line of a record led by its priority, so a traceback stays at its record's level."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


HUSH_LINES = 10
HUSH_S = 60.0
HUSH_KINDS = 1024             # kinds of line followed at once: a template is code, so few


class Hush(logging.Filter):
    """At most `lines` records of each kind per `period`; the next one written after some
    were held back says how many."""

    def __init__(self, lines: int = HUSH_LINES, period: float = HUSH_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.lines, self.period, self.clock = lines, period, clock
        self._kinds: dict[tuple[str, str], list] = {}   # kind -> [window start, written, held]

    def filter(self, record: logging.LogRecord) -> bool:
        kind, now = (record.name, str(record.msg)), self.clock()
        seen = self._kinds.get(kind)
        if seen is None or now - seen[0] >= self.period:
            held = seen[2] if seen is not None else 0
            if len(self._kinds) >= HUSH_KINDS and seen is None:
                self._kinds.pop(next(iter(self._kinds)))
            seen = self._kinds[kind] = [now, 0, 0]
            if held:
                record.msg = f"{record.msg} (and {held} more like it, not written)"
        if seen[1] >= self.lines:
            seen[2] += 1
            return False
        seen[1] += 1
        return True


def set_up(stream: TextIO, environ: Mapping[str, str], verbose: bool = False) -> None:
    """Log to `stream`: warnings and worse, or everything with --verbose."""
    handler = logging.StreamHandler(stream)
    if is_journal(stream, environ):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))  # the journal stamps time
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    _replace(handler)
    logging.getLogger().setLevel(logging.DEBUG if verbose else logging.WARNING)


def for_command(verbose: bool) -> None:
    """A command's log: its stderr, as the environment says (the journal's under systemd)."""
    set_up(sys.stderr, os.environ, verbose)


def _replace(handler: logging.Handler) -> None:
    """`handler` in place of ours; the handlers others set stay."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "tabletop", False)]:
        root.removeHandler(old)          # ours from an earlier main() (tests); others stay
        old.close()
    handler.tabletop = True  # type: ignore[attr-defined]
    handler.addFilter(Hush())
    root.addHandler(handler)


def to_file(path: Path) -> None:
    """Our log lines to the file at `path` from now on (appended), instead of the stream."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    _replace(handler)


def use_level(name: str, verbose: bool = False) -> None:
    """The config's log_level from now on (`tabletop run`); --verbose keeps debug."""
    if not verbose:
        logging.getLogger().setLevel(name.upper())
