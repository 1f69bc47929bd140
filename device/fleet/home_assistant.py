"""Home Assistant's MQTT discovery: each table appears as a device, with no YAML to write.

On each connection a table publishes, retained, one config message per sensor under
homeassistant/sensor/tabletop_<table>/<sensor>/config: the sensor reads the table's own
retained `state` topic through a template, and the table's `online` topic (its last will
says false) marks it available or not. `tabletop fleet retire TABLE` empties them, and
Home Assistant removes the device.
"""
from __future__ import annotations

import json

from .topics import OFFLINE, ONLINE, table_topic

PREFIX = "homeassistant"
GAME = "value_json.game"
SENSORS = {       # sensor: (its name, the template that reads it from the state message)
    "game": ("Game", f"{{{{ {GAME}.title if {GAME} else 'none' }}}}"),
    "turn": ("Turn", f"{{{{ {GAME}.turn if {GAME} and {GAME}.turn else '' }}}}"),
    "leader": ("Leader", f"{{{{ {GAME}.leader if {GAME} and {GAME}.leader else '' }}}}"),
    "players": ("Players", f"{{{{ {GAME}.players | length if {GAME} else 0 }}}}"),
    "state": ("State", "{{ value_json.activity }}"),
}


def node(table: str) -> str:
    return f"tabletop_{table}"


def config_topic(table: str, sensor: str) -> str:
    return f"{PREFIX}/sensor/{node(table)}/{sensor}/config"


def discovery(table: str) -> list[tuple[str, bytes]]:
    """The retained config messages that make `table` a Home Assistant device."""
    device = {"identifiers": [node(table)], "name": f"Tabletop {table}",
              "manufacturer": "Tabletop Companion", "model": "Card table companion"}
    messages = []
    for sensor, (name, template) in SENSORS.items():
        config = {"name": name, "unique_id": f"{node(table)}_{sensor}",
                  "state_topic": table_topic(table, "state"), "value_template": template,
                  "availability_topic": table_topic(table, "online"),
                  "payload_available": ONLINE.decode(), "payload_not_available": OFFLINE.decode(),
                  "device": device}
        messages.append((config_topic(table, sensor), json.dumps(config, sort_keys=True).encode()))
    return messages


def retirement(table: str) -> list[tuple[str, bytes]]:
    """Empty retained messages: the device leaves Home Assistant, the table the dashboard."""
    topics = [config_topic(table, sensor) for sensor in SENSORS]
    return [(topic, b"") for topic in topics + [table_topic(table, "state"),
                                                 table_topic(table, "online")]]
