"""Where the device's log lines go and how they look.

Under systemd the service's stderr is a stream into the journal, and systemd says
so in JOURNAL_STREAM ("device:inode" of that stream, sd-daemon(3)). A line written
there may start with `<N>`, its syslog priority, so `journalctl -p warning` keeps
the warnings and drops ordinary progress. Anywhere else (a terminal, a pipe, a
file) lines are written as `LEVEL logger: message`, with no prefix.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Mapping
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


def set_up(stream: TextIO, environ: Mapping[str, str], verbose: bool = False) -> None:
    """Log to `stream`: warnings and worse, or everything with --verbose."""
    handler = logging.StreamHandler(stream)
    if is_journal(stream, environ):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))  # the journal stamps time
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "tabletop", False)]:
        root.removeHandler(old)          # ours from an earlier main() (tests); others stay
    handler.tabletop = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)


def use_level(name: str, verbose: bool = False) -> None:
    """The config's log_level from now on (`tabletop run`); --verbose keeps debug."""
    if not verbose:
        logging.getLogger().setLevel(name.upper())
