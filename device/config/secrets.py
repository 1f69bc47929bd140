"""Warnings for a config that holds the fleet's secrets: a tag key too short to resist a
guess, and a file that others on the machine can read. Neither stops the table (a key is
still a key, a file still reads): `tabletop config --check` and `tabletop doctor` say them,
and systemd/install.sh makes such a config 0640.
"""
from __future__ import annotations

import os
from pathlib import Path

from engine.core.text import msg

from .problems import Problem
from .schema import Config

KEY_BYTES = 32                     # a random word of 32 bytes: no guessing it


def secret_warnings(config: Config, path: Path | None) -> list[Problem]:
    """What to warn of in `config` (read from `path`): each a key or file and why."""
    fleet, found = config.fleet, []
    if fleet.key is not None and len(fleet.key.encode()) < KEY_BYTES:
        found.append(Problem("fleet.key", msg("cli.secrets.short_key", n=len(fleet.key.encode()),
                                              most=KEY_BYTES)))
    held = [name for name, value in (("fleet.key", fleet.key), ("fleet.password", fleet.password),
                                     ("fleet.dashboard_token", fleet.dashboard_token)) if value]
    if held and path is not None:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return found
        if mode & 0o007:
            found.append(Problem("", msg("cli.secrets.readable", path=path, mode=f"{mode & 0o777:o}",
                                         keys=", ".join(held))))
    return found
