"""Home Assistant's MQTT discovery: each table appears as a device, with no YAML to write.

On each connection a table publishes, retained, one config message per entity under
homeassistant/<component>/tabletop_<table>/<entity>/config. Each entity reads the table's own
retained `state` topic through a template, and the table's `online` topic (its last will says
offline) marks it available or not. `tabletop fleet retire TABLE` empties the messages, and
Home Assistant removes the device.

Devices, entities and entity ids are keyed by the table's id (device/fleet/identity.py), not
its name: each config names its entity id (`sensor.tabletop_<id>_game`) as both `object_id`
(read since Home Assistant 2021.11) and `default_entity_id` (its successor), so the entities a
renamed table makes take its old ones' ids, and with them their history. A table announced under
a new name takes the old name's messages away first, and sends its new ones RENAME_PAUSE_S
later: Home Assistant removes the old entities a moment after it reads that, and configs that
reached it within that moment would find the ids still taken and get them with `_2` (seen on
2024.1 when both came in one burst).

A template says what Home Assistant reads as unknown when there is nothing to say (no game,
nobody's turn, a tie), where an empty string would leave the last value standing, on the
release 2024.1 as on the newest (2025.4 read): `None` for a number (every
release reads it as unknown), the word `unknown` for a text (the unknown state itself: 2024.1
shows a text sensor's `None` as the word "None"), and for the State enum `None` where Home
Assistant kept its options (a release that has them reads `None` as unknown and refuses any
word outside them), `unknown` where it dropped them (2024.1). Every template also reads a
payload that is not JSON (the empty one that retires the table) without an error.
"""
from __future__ import annotations

import importlib.metadata
import json

from .table_state import ACTIVITIES
from .topics import table_topic

PREFIX = "homeassistant"
GAME = "value_json.game"
JSON = "value_json is defined"               # false for a payload that is not JSON (emptied)
NUMBER_UNKNOWN = "None"                      # every release: unknown, for a numeric sensor
TEXT_UNKNOWN = "'unknown'"                   # every release: the unknown state itself
# an enum whose options Home Assistant kept reads None as unknown; one that dropped them
# (2024.1) would show the word
ENUM_UNKNOWN = "('None' if this.attributes.options is defined else 'unknown')"
# Home Assistant removes the entities of an emptied config a moment after it reads it (2024.1:
# within the second): configs with their unique ids that reach it sooner find their entity ids
# still taken, and take them with `_2`
RENAME_PAUSE_S = 5.0
ID_LENGTH = 8      # hex digits of the table id in entity ids: two tables share them once in 4e9 pairs


def _or(value: str, when: str, unknown: str) -> str:
    return f"{{{{ {value} if {JSON} and {when} else {unknown} }}}}"


def _text(value: str, when: str) -> str:
    return _or(value, when, TEXT_UNKNOWN)


SENSORS: dict[str, dict[str, object]] = {       # entity: its name and what else its config says
    "game": {"name": "Game", "value_template": _text(f"{GAME}.title", GAME)},
    "turn": {"name": "Turn", "value_template": _text(f"{GAME}.turn", f"{GAME} and {GAME}.turn")},
    "leader": {"name": "Leader",
               "value_template": _text(f"{GAME}.leader", f"{GAME} and {GAME}.leader")},
    "players": {"name": "Players", "state_class": "measurement",
                "value_template": _or(f"{GAME}.players | length", GAME, NUMBER_UNKNOWN),
                # each seat's score: {"Alice": 12, "Bob": 9}, empty without a game
                "json_attributes_topic": "state",
                "json_attributes_template":
                    f"{{{{ ({GAME}.scores if {JSON} and {GAME} else {{}}) | tojson }}}}"},
    "state": {"name": "State", "device_class": "enum", "options": list(ACTIVITIES),
              "value_template": _or("value_json.activity",
                                    f"value_json.activity in {list(ACTIVITIES)}", ENUM_UNKNOWN)},
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


def entity_id(table_id: str, entity: str) -> str:
    """The entity's id in Home Assistant, the same under any table name."""
    component = "binary_sensor" if entity in FAULTS else "sensor"
    return f"{component}.{node(table_id[:ID_LENGTH])}_{entity}"


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
                       "value_template": f"{{{{ 'ON' if {JSON} and '{part}' in "
                                         "(value_json.faults or {}) else 'OFF' }}"}
    return found


def renamed_away(renamed_from: str | None, table: str) -> list[tuple[str, bytes]]:
    """The empty configs that take away the name a table was announced under before, if it was
    another: sent RENAME_PAUSE_S before the new name's configs."""
    return retirement_of_discovery(renamed_from) if renamed_from not in (None, table) else []


def discovery(table: str, table_id: str) -> list[tuple[str, bytes]]:
    """The retained config messages that make `table` a Home Assistant device."""
    version = software()
    device = {"identifiers": [node(table_id)], "name": f"Tabletop {table}",
              "manufacturer": "Tabletop Companion", "model": "Card table companion",
              "sw_version": version}
    origin = {"name": "Tabletop Companion", "sw_version": version}
    availability = [{"topic": table_topic(table, "online"),
                     "value_template": f"{{{{ 'online' if {JSON} and value_json.online "
                                       "else 'offline' }}"}]
    messages = []
    for entity, own in entities(table).items():
        config = {**own, "unique_id": f"{node(table_id)}_{entity}",
                  "object_id": entity_id(table_id, entity).split(".")[1],
                  "default_entity_id": entity_id(table_id, entity),
                  "state_topic": table_topic(table, "state"), "availability": availability,
                  "device": device, "origin": origin}
        messages.append((config_topic(table, entity), json.dumps(config, sort_keys=True).encode()))
    return messages


def retirement_of_discovery(table: str) -> list[tuple[str, bytes]]:
    return [(config_topic(table, entity), b"") for entity in (*SENSORS, *FAULTS)]


def retirement(table: str) -> list[tuple[str, bytes]]:
    """Empty retained messages: the device leaves Home Assistant, the table the dashboard. The
    configs go first, so that the entities are on their way out when the emptied state
    reaches them (and their templates read it without an error if they are not gone yet)."""
    return [*retirement_of_discovery(table),
            *((table_topic(table, kind), b"") for kind in ("state", "online"))]
