"""`tabletop status`: the running or last game of a state dir, in the replay's JSON form."""
from __future__ import annotations

import json
from pathlib import Path

from device.storage.journal import JournalError
from device.storage.status import status
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .replay import summary_lines


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
