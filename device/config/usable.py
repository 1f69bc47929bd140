"""What a configuration needs of this machine before `tabletop run` can use it: the files it
names are there and readable, and its state dir can be written.

`tabletop config --check` reports these beside the file's own problems, so a config it
accepts is one `run` will not refuse; `run` checks the state dir itself before it starts.
"""
from __future__ import annotations

import os
from pathlib import Path

from .schema import Config


def machine_problems(config: Config, state_dir: Path) -> list[str]:
    """One `key: reason` line for each file or folder of `config` this machine cannot use."""
    problems = []
    fleet = config.fleet
    if fleet.ca_file is not None:
        problem = readable_file(fleet.ca_file)
        if problem:
            problems.append(f"fleet.ca_file: {problem}")
    problem = writable_dir(state_dir)
    if problem:
        problems.append(f"state_dir: {problem}")
    return problems


def readable_file(path: Path) -> str | None:
    """Why `path` cannot be read as a file, or None."""
    try:
        with open(path, "rb") as file:
            file.read(1)
    except IsADirectoryError:
        return f"{path} is a folder, not a file"
    except (OSError, ValueError) as exc:
        return f"{path}: {getattr(exc, 'strerror', None) or exc}"
    return None


def writable_dir(path: Path) -> str | None:
    """Why `path` cannot be used as a folder to write in (made if missing), or None.

    A missing folder is fine when the nearest folder above it that exists is writable:
    the device creates the rest on start.
    """
    try:
        existing = next(p for p in (path, *path.parents) if p.exists())
        if not existing.is_dir():
            return f"{existing} is not a folder"
        if not os.access(existing, os.W_OK | os.X_OK):
            where = "" if existing == path else f" (nor can {path} be made there)"
            return f"{existing} is not writable{where}"
    except (OSError, ValueError) as exc:
        return f"{path}: {getattr(exc, 'strerror', None) or exc}"
    return None
