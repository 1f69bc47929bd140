"""The fleet's topic schema on the café's MQTT broker (docs/fleet.md describes it for other tools).

    tabletop/<table>/online          retained  "true" / "false" (the last will says false)
    tabletop/<table>/state           retained  JSON: what the table shows now
    tabletop/<table>/events          JSON per accepted event, with a per-table `seq`
    tabletop/<table>/finished        JSON per finished game
    tabletop/shared/decks/<name>     retained  JSON: a deck file shared by a table
    tabletop/shared/staff            retained  JSON: staff cards shared by a table
    tabletop/sync/<client>           a tool's own marker (see `fetch_retained`)

Every JSON payload carries `schema` (this module's SCHEMA) and `table`.
"""
from __future__ import annotations

import json

ROOT = "tabletop"
SCHEMA = 1
SHARED = "shared"                     # a reserved level: no table may take this name
KINDS = ("online", "state", "events", "finished")
TABLE_FILTERS = tuple(f"{ROOT}/+/{kind}" for kind in KINDS)
SHARED_FILTER = f"{ROOT}/{SHARED}/#"
SHARED_STAFF = f"{ROOT}/{SHARED}/staff"


def table_topic(table: str, kind: str) -> str:
    assert kind in KINDS, kind
    return f"{ROOT}/{table}/{kind}"


def shared_deck_topic(name: str) -> str:
    return f"{ROOT}/{SHARED}/decks/{name}"


def sync_topic(client_id: str) -> str:
    return f"{ROOT}/sync/{client_id}"


def table_of(topic: str) -> tuple[str, str] | None:
    """(table, kind) of a table's topic; None for any other topic."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and parts[1] != SHARED and parts[2] in KINDS:
        return parts[1], parts[2]
    return None


def shared_deck_of(topic: str) -> str | None:
    """The deck name of a shared deck's topic, else None."""
    prefix = shared_deck_topic("")
    name = topic[len(prefix):]
    return name if topic.startswith(prefix) and name and "/" not in name else None


def encode(payload: dict) -> bytes:
    return json.dumps({"schema": SCHEMA, **payload}, ensure_ascii=False, sort_keys=True).encode()


def decode(payload: bytes) -> dict | None:
    """A JSON object of a schema this code knows; None for anything else (a broker is shared)."""
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) and data.get("schema") == SCHEMA else None


ONLINE, OFFLINE = b"true", b"false"
