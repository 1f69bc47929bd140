"""What a configuration needs of this machine before `tabletop run` can use it: the files it
names are there and readable, and its state dir can be written.

`tabletop config --check` reports these beside the file's own problems, so a config it
accepts is one `run` will not refuse; `run` checks the state dir itself before it starts.
"""
from __future__ import annotations

import os
from pathlib import Path

from engine.core.text import Msg, msg

from .problems import Problem, os_reason
from .schema import Config


def machine_problems(config: Config, state_dir: Path) -> list[Problem]:
    """One problem for each file or folder of `config` this machine cannot use."""
    problems = []
    fleet = config.fleet
    if fleet.ca_file is not None:
        problem = readable_file(fleet.ca_file)
        if problem:
            problems.append(Problem("fleet.ca_file", problem))
    problem = writable_dir(state_dir)
    if problem:
        problems.append(Problem("state_dir", problem))
    return problems


def readable_file(path: Path) -> Msg | None:
    """Why `path` cannot be read as a file, or None."""
    try:
        with open(path, "rb") as file:
            file.read(1)
    except IsADirectoryError:
        return msg("cli.config.file_is_folder", path=path)
    except (OSError, ValueError) as exc:
        return msg("cli.config.path_reason", path=path, why=os_reason(exc))
    return None


def writable_dir(path: Path) -> Msg | None:
    """Why `path` cannot be used as a folder to write in (made if missing), or None.

    A missing folder is fine when the nearest folder above it that exists is writable:
    the device creates the rest on start.
    """
    try:
        existing = next(p for p in (path, *path.parents) if p.exists())
        if not existing.is_dir():
            return msg("cli.config.not_a_folder", path=existing)
        if not os.access(existing, os.W_OK | os.X_OK):
            if existing == path:
                return msg("cli.config.not_writable", path=existing)
            return msg("cli.config.not_writable_above", path=existing, dir=path)
    except (OSError, ValueError) as exc:
        return msg("cli.config.path_reason", path=path, why=os_reason(exc))
    return None
