"""The running or last game of a state dir, read from its journal; and the running table's
fleet link, as the table leaves it for `tabletop status`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from device.paths import write_atomic
from engine.core.catalog import DEFAULT_LANGUAGE

FLEET_FILE = "fleet-status.json"      # {"offline": why, "pid": the table's}; absent: all is well
SHOWN_WHY = 300                       # a reason is one line of a terminal or two, not a file


def latest_journal(state_dir: Path) -> Path | None:
    current = state_dir / "current.jsonl"
    if current.exists():
        return current
    archived = sorted((state_dir / "archive").glob("*.jsonl"))
    return archived[-1] if archived else None


def status(state_dir: Path, language: str = DEFAULT_LANGUAGE) -> dict | None:
    path = latest_journal(state_dir)
    if path is None:
        return None
    # a game to read: only now the journal, the engine and the game's rules (`tabletop status`
    # with no game starts without them)
    from . import journal
    from .summary import summary
    resumed = journal.resume(path)
    session = resumed.session
    return summary(session.spec, session.state, language)


def note_fleet(state_dir: Path, offline: str | None) -> None:
    """Why this running table's fleet link is offline (None: it is not). A disk that refuses
    the note only leaves `tabletop status` without it: the game goes on."""
    path = Path(state_dir) / FLEET_FILE
    try:
        if offline is None:
            path.unlink(missing_ok=True)
        else:
            write_atomic(path, json.dumps({"offline": offline, "pid": os.getpid()}))
    except OSError:
        pass


def fleet_offline(state_dir: Path) -> str | None:
    """Why the running table's fleet is offline; None when it is not, or no table runs (a
    table that died leaves its note behind: its process is gone, so the note says nothing)."""
    try:
        data = json.loads((Path(state_dir) / FLEET_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and isinstance(data.get("offline"), str)
            and isinstance(data.get("pid"), int) and running(data["pid"])):
        return None
    return data["offline"][:SHOWN_WHY]


def running(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:               # another user's process: it runs
        return True
    except (OSError, OverflowError):
        return False
    return True
