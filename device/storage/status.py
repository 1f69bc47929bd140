"""The running or last game of a state dir, read from its journal."""
from __future__ import annotations

from pathlib import Path

from engine.core.text import DEFAULT_LANGUAGE

from . import journal
from .summary import summary


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
