"""`tabletop status`: the running or last game of a state dir, in the replay's JSON form, and
why the running table's fleet is offline when it is."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from device.paths import default_state_dir
from device.storage.status import fleet_offline, latest_journal, status
from device.texts import say
from device.web.address import url_of
from engine.core.catalog import DEFAULT_LANGUAGE


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    status = subparsers.add_parser("status", help="cli.help.status")
    status.add_argument("--state-dir", type=Path, help="cli.help.state_dir")
    status.add_argument("--json", action="store_true", help="cli.help.json")
    status.set_defaults(handler=lambda args: status_command(args.state_dir or default_state_dir(),
                                                            args.json, args.language))


def status_command(state_dir: Path, as_json: bool, language: str = DEFAULT_LANGUAGE) -> int:
    offline = fleet_offline(state_dir)
    # one line on a terminal: the screen's text breaks after its colon
    fleet = [" ".join(say(language, "fleet.offline_why", why=offline).split("\n"))] \
        if offline else []
    if latest_journal(state_dir) is None:
        return no_game(state_dir, as_json, language, fleet)
    # a game to read: only now the journal, the engine and the game's rules
    from device.storage.journal import JournalError

    from .tally import summary_lines
    try:
        info = status(state_dir, language)
    except (JournalError, OSError) as exc:
        print("\n".join([say(language, "cli.status.unreadable", dir=state_dir, why=exc), *fleet]))
        return 2
    if info is None:                     # archived or removed since it was looked for
        return no_game(state_dir, as_json, language, fleet)
    if as_json:
        extra: dict[str, object] = {"fleet_offline": offline} if offline else {}    # the replay's
        if (url := url_of(state_dir)) is not None:               # the running table's page
            extra["web"] = {"url": url}
        print(json.dumps({**info, **extra}, ensure_ascii=False))
    else:
        print("\n".join(summary_lines(info, language) + fleet))
    return 0


def no_game(state_dir: Path, as_json: bool, language: str, fleet: list[str]) -> int:
    """No game: JSON null, or where a table runs on the state dir with its page, only that."""
    url = url_of(state_dir) if as_json else None
    print(json.dumps(None if url is None else {"game": None, "web": {"url": url}}) if as_json else
          "\n".join([say(language, "cli.status.no_game", dir=state_dir), *fleet]))
    return 1
