"""Home Assistant's MQTT discovery: each table appears as a device, with no YAML to write.

On each connection a table publishes, retained, one config message per entity under
homeassistant/<component>/tabletop_<table>/<entity>/config. Each entity reads the table's own
retained `state` topic through a template, and the table's `online` topic (its last will says
offline) marks it available or not. A template renders `None` when there is nothing to say (no
game, nobody's turn, a tie): Home Assistant then shows the entity as unknown, where an empty
string would be ignored and leave the last value standing. `tabletop fleet retire TABLE`
empties the messages, and Home Assistant removes the device.

Devices and entities are keyed by the table's id (device/fleet/identity.py), not its name, so a
renamed host keeps its device and history; a table announced under a new name takes the old
name's messages away.
"""
from __future__ import annotations

import importlib.metadata
import json

from .table_state import ACTIVITIES
from .topics import table_topic

PREFIX = "homeassistant"
GAME = "value_json.game"
NOTHING = "None"                       # what Home Assistant's MQTT entities read as unknown


def _or_none(value: str, when: str) -> str:
    return f"{{{{ {value} if {when} else {NOTHING} }}}}"


SENSORS: dict[str, dict[str, object]] = {       # entity: its name and what else its config says
    "game": {"name": "Game", "value_template": _or_none(f"{GAME}.title", GAME)},
    "turn": {"name": "Turn", "value_template": _or_none(f"{GAME}.turn", f"{GAME} and {GAME}.turn")},
    "leader": {"name": "Leader",
               "value_template": _or_none(f"{GAME}.leader", f"{GAME} and {GAME}.leader")},
    "players": {"name": "Players", "state_class": "measurement",
                "value_template": _or_none(f"{GAME}.players | length", GAME),
                # each seat's score: {"Alice": 12, "Bob": 9}, empty without a game
                "json_attributes_topic": "state",
                "json_attributes_template": f"{{{{ ({GAME}.scores if {GAME} else {{}}) | tojson }}}}"},
    "state": {"name": "State", "device_class": "enum", "options": list(ACTIVITIES),
              "value_template": "{{ value_json.activity if value_json.activity in "
                                f"{list(ACTIVITIES)} else {NOTHING} }}}}"},
}
FAULTS = {        # binary sensor: its name and the fault it watches (device/app.py's parts)
    "reader_fault": ("Reader", "reader"),
    "display_fault": ("Display", "display"),
    "storage_fault": ("Storage", "disk"),
}


def node(table: str) -> str:
    return f"tabletop_{table}"


def config_topic(table: str, entity: str) -> str:
    component = "binary_sensor" if entity in FAULTS else "sensor"
    return f"{PREFIX}/{component}/{node(table)}/{entity}/config"


def software() -> str:
    try:
        return importlib.metadata.version("tabletop-companion")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def entities(table: str) -> dict[str, dict]:
    """Each entity's own part of its config message."""
    found = {name: dict(config) for name, config in SENSORS.items()}
    found["players"]["json_attributes_topic"] = table_topic(table, "state")
    for name, (label, part) in FAULTS.items():
        found[name] = {"name": label, "device_class": "problem", "entity_category": "diagnostic",
                       "value_template": f"{{{{ 'ON' if '{part}' in (value_json.faults or {{}}) "
                                         "else 'OFF' }}"}
    return found


def discovery(table: str, table_id: str, renamed_from: str | None = None) -> list[tuple[str, bytes]]:
    """The retained config messages that make `table` a Home Assistant device (and, when it was
    announced under another name before, the empty ones that take that name's away first)."""
    version = software()
    device = {"identifiers": [node(table_id)], "name": f"Tabletop {table}",
              "manufacturer": "Tabletop Companion", "model": "Card table companion",
              "sw_version": version}
    origin = {"name": "Tabletop Companion", "sw_version": version}
    availability = [{"topic": table_topic(table, "online"),
                     "value_template": "{{ 'online' if value_json.online else 'offline' }}"}]
    messages = retirement_of_discovery(renamed_from) if renamed_from not in (None, table) else []
    for entity, own in entities(table).items():
        config = {**own, "unique_id": f"{node(table_id)}_{entity}",
                  "state_topic": table_topic(table, "state"), "availability": availability,
                  "device": device, "origin": origin}
        messages.append((config_topic(table, entity), json.dumps(config, sort_keys=True).encode()))
    return messages


def retirement_of_discovery(table: str) -> list[tuple[str, bytes]]:
    return [(config_topic(table, entity), b"") for entity in (*SENSORS, *FAULTS)]


def retirement(table: str) -> list[tuple[str, bytes]]:
    """Empty retained messages: the device leaves Home Assistant, the table the dashboard."""
    return [*retirement_of_discovery(table),
            *((table_topic(table, kind), b"") for kind in ("state", "online"))]
