"""`tabletop status`: the running or last game of a state dir, in the replay's JSON form."""
from __future__ import annotations

import json
from pathlib import Path

from device.texts import say
from device.cli.replay import summary
from device.cli.replay_text import summary_lines
from engine.core.text import DEFAULT_LANGUAGE

from . import journal
from .journal import JournalError


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
    resumed = journal.resume(path)
    session = resumed.session
    return summary(session.spec, session.state, language)


def status_command(state_dir: Path, as_json: bool, language: str = DEFAULT_LANGUAGE) -> int:
    try:
        info = status(state_dir, language)
    except (JournalError, OSError) as exc:
        print(say(language, "cli.status.unreadable", dir=state_dir, why=exc))
        return 2
    if info is None:
        print(json.dumps(None) if as_json else say(language, "cli.status.no_game", dir=state_dir))
        return 1
    if as_json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        print("\n".join(summary_lines(info, language)))
    return 0
