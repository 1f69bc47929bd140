"""The fleet's topic schema on the café's MQTT broker (docs/fleet.md describes it for other tools).

    tabletop/<table>/online          retained  JSON: online true/false and `since` when (the
                                               last will says false, with no time: the broker
                                               sends it when the table is found gone)
    tabletop/<table>/state           retained  JSON: what the table shows now
    tabletop/<table>/events          JSON per accepted event, with a per-table `seq`
    tabletop/<table>/finished        JSON per finished game
    tabletop/<table>/defaults        retained  JSON: the café's house rules and language for
                                               the table, signed by the café (fleet/defaults.py)
    tabletop/shared/decks/<name>     retained  JSON: a deck file shared by a table
    tabletop/shared/staff            retained  JSON: staff cards shared by a table
    tabletop/shared/players          retained  JSON: the café's roster
    tabletop/shared/tables           retained  JSON: the enrolled tables and their public keys
    tabletop/sync/<client>           a tool's own marker (see `fetch_retained`)

Every JSON payload carries `schema` (this module's SCHEMA) and `table`; a signed one also
its publisher, its topic and its counter (envelope.py).
"""
from __future__ import annotations

import json
import logging

log = logging.getLogger(__name__)

ROOT = "tabletop"
SCHEMA = 1
SHARED = "shared"                     # a reserved level: no table may take this name
KINDS = ("online", "state", "events", "finished")
TABLE_FILTERS = tuple(f"{ROOT}/+/{kind}" for kind in KINDS)
SHARED_FILTER = f"{ROOT}/{SHARED}/#"
SHARED_STAFF = f"{ROOT}/{SHARED}/staff"
SHARED_PLAYERS = f"{ROOT}/{SHARED}/players"
SHARED_TABLES = f"{ROOT}/{SHARED}/tables"
DEFAULTS = "defaults"                 # a table's own topic the café writes, not one of KINDS


def table_topic(table: str, kind: str) -> str:
    assert kind in KINDS, kind
    return f"{ROOT}/{table}/{kind}"


def defaults_topic(table: str) -> str:
    return f"{ROOT}/{table}/{DEFAULTS}"


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


def online_data(table: str, up: bool, since: str | None) -> dict:
    """The `online` payload's fields: up or not, and since when (None: not known)."""
    return {"table": table, "online": up, "since": since}


def online_message(table: str, up: bool, since: str | None) -> bytes:
    """The `online` payload unsigned: the last will, whose time is not known."""
    return encode(online_data(table, up, since))


def online_of(payload: bytes) -> tuple[bool, str | None] | None:
    """(up, since) of an `online` payload; None for anything else. Older tables said a bare
    "true" or "false", with no time."""
    legacy = {ONLINE: True, OFFLINE: False}.get(bytes(payload))
    if legacy is not None:
        return legacy, None
    data = decode(payload)
    if data is None or not isinstance(data.get("online"), bool):
        return None
    since = data.get("since")
    return data["online"], since if isinstance(since, str) and len(since) <= 40 else None


def encode(payload: dict) -> bytes:
    """The message as sent unsigned (a signed one: envelope.Signer.seal)."""
    payload = {"schema": SCHEMA, **payload}
    return json.dumps(payload, ensure_ascii=False, sort_keys=True).encode()


MAX_BYTES = 256 * 1024                # a shared deck file is a few kB; a state far less
MAX_DEPTH = 12                        # the deepest payload above nests 5 levels


def decode(payload: bytes, topic: str | None = None) -> dict | None:
    """A JSON object of a schema this code knows; None for anything else (a broker is shared).
    With `topic` given, a refused payload is logged in one line."""
    data, why = check(payload)
    if why is not None and topic is not None:
        log.warning("fleet: dropped the message on %.80s: %s", topic, why)
    return data


def check(payload: bytes) -> tuple[dict | None, str | None]:
    """(the JSON object, None) for a payload of a schema this code knows, else (None, why).

    Any client can write to the broker, so a payload is bounded in size and nesting before
    and after parsing: a deeply nested one would otherwise raise RecursionError in the
    thread that reads it."""
    why = _refusal(payload)
    if why is not None:
        return None, why
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, "not JSON"
    if not (isinstance(data, dict) and data.get("schema") == SCHEMA):
        return None, f"not a schema {SCHEMA} object"
    if depth(data) > MAX_DEPTH:
        return None, f"nested deeper than {MAX_DEPTH}"
    return data, None


def _refusal(payload) -> str | None:
    if not isinstance(payload, (bytes, bytearray)):
        return "not bytes"
    if len(payload) > MAX_BYTES:
        return f"{len(payload)} bytes, more than {MAX_BYTES}"
    return None


def depth(value) -> int:
    """How deep lists and objects nest in `value`, a level at a time (no recursion), looking
    no deeper than one level past MAX_DEPTH."""
    deepest, level = 0, [value]
    while True:
        level = [item for item in level if isinstance(item, (dict, list))]
        if not level:
            return deepest
        deepest += 1
        if deepest > MAX_DEPTH:
            return deepest
        level = [child for item in level
                 for child in (item.values() if isinstance(item, dict) else item)]


ONLINE, OFFLINE = b"true", b"false"
