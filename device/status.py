"""`tabletop status`: the running or last game of a state dir, in the replay's JSON form."""
from __future__ import annotations

import json
from pathlib import Path

from . import journal
from .journal import JournalError
from .replay import summary


def latest_journal(state_dir: Path) -> Path | None:
    current = state_dir / "current.jsonl"
    if current.exists():
        return current
    archived = sorted((state_dir / "archive").glob("*.jsonl"))
    return archived[-1] if archived else None


def status(state_dir: Path) -> dict | None:
    path = latest_journal(state_dir)
    if path is None:
        return None
    resumed = journal.resume(path)
    session = resumed.session
    return summary(session.spec, session.state)


def status_command(state_dir: Path, as_json: bool) -> int:
    try:
        info = status(state_dir)
    except (JournalError, OSError) as exc:
        print(f"tabletop: cannot read the game in {state_dir}: {exc}")
        return 2
    if info is None:
        print(json.dumps(None) if as_json else f"No game in {state_dir}")
        return 1
    if as_json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        state = "game over" if info["over"] else info["prompt"]["text"].replace("\n", " ")
        print(f"{info['game']}: {state}")
        for p in info["players"]:
            print(f"  {p['name']:<10} {'-' if p['score'] is None else p['score']:>4}")
        if info["over"]:
            print("Winners: " + (", ".join(info["winners"]) or "none"))
    return 0
