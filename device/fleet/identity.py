"""Who a table is to Home Assistant, across renames: an id made once and kept in the state dir.

A table's name in the topics defaults to the host name, so renaming the host renames the table.
Home Assistant keys a device and its entities by `identifiers` and `unique_id`: taken from the
name, a rename would leave the old device behind, dead, and make a new one with no history.
So those come from `table-id.json`, made on the first connection. It also remembers the name the
table was last announced under, so the table can take the old name's discovery messages away.
"""
from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from device.paths import write_atomic
from device.storage.quarantine import refuse

FILE = "table-id.json"
ID = re.compile(r"[0-9a-f]{32}")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")      # as the config takes a table name


@dataclass(frozen=True)
class Identity:
    id: str
    announced_as: str | None            # the table name of the last announcement, if any


def identity(state_dir: Path) -> Identity:
    """The table's identity, made (and kept) when there is none or the file does not read."""
    path = state_dir / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = None
    except (OSError, ValueError) as exc:
        refuse(state_dir, path, exc)
        data = None
    if data is not None:
        found = _checked(data)
        if found is not None:
            return found
        refuse(state_dir, path, "not a table id")
    made = Identity(uuid.uuid4().hex, None)
    _keep(state_dir, made)
    return made


def announced(state_dir: Path, ident: Identity, table: str) -> Identity:
    """The identity once announced under `table`, kept for the next start."""
    if ident.announced_as == table:
        return ident
    now = Identity(ident.id, table)
    _keep(state_dir, now)
    return now


def _checked(data: object) -> Identity | None:
    if not isinstance(data, dict) or set(data) - {"id", "announced_as"}:
        return None
    table_id, name = data.get("id"), data.get("announced_as")
    if not (isinstance(table_id, str) and ID.fullmatch(table_id)):
        return None
    if name is not None and not (isinstance(name, str) and NAME.fullmatch(name)):
        return None
    return Identity(table_id, name)


def _keep(state_dir: Path, ident: Identity) -> None:
    try:
        write_atomic(state_dir / FILE, json.dumps({"id": ident.id, "announced_as": ident.announced_as}))
    except OSError:
        pass            # a full or read-only disk: the id holds for this run, made again next time
