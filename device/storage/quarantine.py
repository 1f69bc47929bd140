"""Files of the state dir that cannot be read as they should: moved aside, never deleted.

A settings file, a deck, the staff list, card data, a saved game, the history database or
the fleet's own files that does not read (not UTF-8, bad TOML or JSON, wrong types or
shape, nested too deeply) would otherwise stop the table or be overwritten. Every reader
hands such a file here, and the table starts with everything else:

    <state dir>/unreadable/000001-staff.toml           the file, as it was
    <state dir>/unreadable/000001-staff.toml.reason    where it was, and why it was moved

The reason goes to the log in one line, and to the screen once (`news`). Only the process
that runs the table (`watch`) moves files: a command that only reads (`deck list`, `cards
export`) reports the same line and leaves the file where it is.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from device.config.problems import one_line
from device.paths import numbered

log = logging.getLogger(__name__)

FOLDER = "unreadable"
REASON = ".reason"
SHOWN = 120                        # characters of a reason kept: a huge value is cut


_watched: dict[Path, list[str]] = {}      # state dir -> names of the files moved, not shown yet


def _key(state_dir: Path) -> Path:
    return Path(os.path.abspath(state_dir))


def watch(state_dir: Path) -> None:
    """This process runs the table on `state_dir`: unreadable files there are moved aside."""
    _watched.setdefault(_key(state_dir), [])


def unwatch(state_dir: Path) -> None:
    _watched.pop(_key(state_dir), None)


def watched(state_dir: Path) -> bool:
    return _key(state_dir) in _watched


def cut(text: object) -> str:
    """A reason on one line, not too long for a log or a screen."""
    return one_line(text, SHOWN)


def refuse(state_dir: Path, path: Path, reason: object, *, always: bool = False,
           tell: bool = True) -> str:
    """The one thing to do with a file of `state_dir` that cannot be read as it should:
    moved aside when this process runs the table (or `always`: a saved game or database in
    the way of a new one), the reason logged in one line, and the move told to the screen
    (unless the caller says it itself). `reason` may be a list of the file's problems: the
    first is told, and how many there are. The line, for the caller's report."""
    name = _name(state_dir, path)
    why = cut(_first_of(reason) if isinstance(reason, list) else reason)
    if not (always or watched(state_dir)):
        return f"{path}: {why}"          # a command that only reads: it reports, nothing moves
    try:
        kept = _move(state_dir, path, name, why)
    except FileNotFoundError:        # another reader of this process moved it a moment ago
        return f"{name}: {why}"
    except OSError as exc:           # a read-only disk: the file stays, unused, the table goes on
        line = f"{name}: {why}; left in place, cannot move it ({exc.strerror or exc})"
        log.error("%s", line)
        return line
    line = f"{name}: {why}; kept aside as {FOLDER}/{kept.name}"
    log.error("%s", line)
    if tell and watched(state_dir):
        _watched[_key(state_dir)].append(name)
    return line


def _first_of(problems: list) -> str:
    return f"{problems[0]} ({len(problems)} problems)" if len(problems) > 1 else str(problems[0])


def news(state_dir: Path) -> list[str]:
    """The files moved aside since the last call, by their names in the state dir: each is
    shown once."""
    found = _watched.get(_key(state_dir))
    if not found:
        return []
    taken = list(found)
    found.clear()
    return taken


def _name(state_dir: Path, path: Path) -> str:
    try:
        return str(Path(os.path.abspath(path)).relative_to(_key(state_dir)))
    except ValueError:
        return str(path)


def _move(state_dir: Path, path: Path, name: str, why: str) -> Path:
    """Move `path` (and a database's -wal and -shm files) into the folder, its reason beside."""
    kept = numbered(state_dir / FOLDER, path.name, "")
    os.replace(path, kept)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    try:
        kept.with_name(kept.name + REASON).write_text(f"was: {name}\nwhy: {why}\n",
                                                      encoding="utf-8")
    except OSError:
        pass                         # the file is safe; only its note is missing
    return kept
