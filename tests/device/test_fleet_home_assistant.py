"""Home Assistant's MQTT discovery against a real Mosquitto: a table announces itself as a
device when it connects, and `tabletop fleet retire` takes it away.

The discovery messages are read back from the broker, and their templates rendered the way
Home Assistant renders them (Jinja, `value_json` the parsed payload and undefined for one that is
not JSON, an undefined variable an error it logs, `this` the entity's own state) against the
state messages a real table publishes. What the sensor then shows follows Home Assistant's MQTT
sensor as its releases read a rendered value: 2024.1 (the oldest that runs on Python 3.11 with
today's discovery) and 2025.4 (components/mqtt/sensor.py, `_update_state`)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import jinja2
import pytest

from device.cli import main
from device.config import parse_config
from device.fleet import home_assistant, plugin
from device.fleet.identity import FILE, identity
from device.fleet.plugin import open_fleet
from device.fleet.retained import fetch_retained
from device.fleet.table_state import ACTIVITIES
from device.fleet.topics import decode, online_of
from device.inputs import PartStatus
from tests.device.fleet_tables import CafeTable, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import WAIT_S, config_file

SENSORS = ["game", "leader", "players", "state", "turn"]
FAULTS = ["display_fault", "reader_fault", "storage_fault"]
JINJA = jinja2.Environment(undefined=jinja2.ChainableUndefined)
STRICT = jinja2.Environment(undefined=jinja2.StrictUndefined)      # an undefined name: an error
RELEASES = ("2024.1", "2025.4")


def render(template: str, payload: bytes, options_kept: bool = True, strict: bool = False) -> str:
    """A template as Home Assistant's MQTT integration renders it against a payload: `value_json`
    only for a JSON payload; `this`, the entity's state, with its enum options where the
    release kept them."""
    variables: dict[str, object] = {"value": payload.decode(errors="replace"),
                                    "this": {"attributes": {"options": ACTIVITIES} if options_kept else {}}}
    try:
        variables["value_json"] = json.loads(payload)
    except ValueError:
        pass
    return (STRICT if strict else JINJA).from_string(template).render(**variables).strip()


def shown(config: dict, payload: bytes, release: str) -> str:
    """What the sensor of `config` shows for `payload` in Home Assistant `release`: "unknown"
    for no value. Numeric sensors (a state_class) read "None" as unknown in both; 2024.1
    dropped a sensor's `options` and showed "None" as a word on any other sensor."""
    rendered = render(config["value_template"], payload, options_kept=release != "2024.1")
    numeric = "state_class" in config
    options = config.get("options") if release != "2024.1" else None
    if rendered == "None" and (numeric or release != "2024.1"):
        return "unknown"
    if options and rendered not in options:
        return "refused"              # Home Assistant logs it and keeps the last value
    return rendered


def announce(tmp_path, broker, table: str, state_dir) -> dict[str, dict]:
    config = config_file(tmp_path, broker, table)
    fleet = open_fleet(parse_config(config.read_text()), state_dir, lambda: "now")
    assert fleet.link.wait_up(WAIT_S)
    fleet.link.close(flush_s=WAIT_S)
    found = fetch_retained(settings_for(broker), "homeassistant/#")
    return {topic: json.loads(payload) for topic, payload in found.items()}


def test_every_entity_of_a_table_as_home_assistant_reads_it(tmp_path):
    with running_broker(tmp_path) as broker:
        state_dir = tmp_path / "s"
        configs = announce(tmp_path, broker, "table-4", state_dir)
        table_id = identity(state_dir).id
        by_entity = {topic.split("/")[3]: config for topic, config in configs.items()}
        assert sorted(by_entity) == sorted(SENSORS + FAULTS)
        assert {topic.split("/")[1] for topic in configs} == {"sensor", "binary_sensor"}
        for entity, config in by_entity.items():
            assert config["unique_id"] == f"tabletop_{table_id}_{entity}"
            component = "binary_sensor" if entity in FAULTS else "sensor"
            assert config["default_entity_id"] == f"{component}.tabletop_{table_id[:8]}_{entity}"
            assert config["object_id"] == config["default_entity_id"].split(".")[1]
            assert config["state_topic"] == "tabletop/table-4/state"
            assert config["device"]["identifiers"] == [f"tabletop_{table_id}"]
            assert config["device"]["name"] == "Tabletop table-4"
            assert config["device"]["sw_version"] and config["device"]["model"]
            assert config["origin"]["name"] == "Tabletop Companion"
            assert config["origin"]["sw_version"] == config["device"]["sw_version"]
            [availability] = config["availability"]
            assert availability["topic"] == "tabletop/table-4/online"
        assert by_entity["players"]["state_class"] == "measurement"
        assert by_entity["players"]["json_attributes_topic"] == "tabletop/table-4/state"
        assert by_entity["state"]["device_class"] == "enum"
        assert by_entity["state"]["options"] == list(ACTIVITIES)
        for fault in FAULTS:
            assert by_entity[fault]["device_class"] == "problem"


def test_the_templates_render_unknown_without_a_value_and_the_scores_as_attributes(tmp_path):
    with running_broker(tmp_path) as broker:
        configs = announce(tmp_path, broker, "table-4", tmp_path / "s")
        by_entity = {topic.split("/")[3]: config for topic, config in configs.items()}
        table = CafeTable(tmp_path / "t", "table-4", settings_for(broker))
        assert table.link.wait_up(WAIT_S)
        idle = state_of(table, broker)
        values = {name: render(c["value_template"], idle) for name, c in by_entity.items()}
        assert values == {"game": "unknown", "turn": "unknown", "leader": "unknown",
                          "players": "None", "state": "idle", "reader_fault": "OFF",
                          "display_fault": "OFF", "storage_fault": "OFF"}
        for release in RELEASES:               # each says unknown, never the word "None"
            assert {name: shown(c, idle, release) for name, c in by_entity.items()
                    if name in SENSORS} == {"game": "unknown", "turn": "unknown",
                                            "leader": "unknown", "players": "unknown",
                                            "state": "idle"}, release
        assert render(by_entity["players"]["json_attributes_template"], idle) == "{}"

        table.start("palourde", ["Ann", "Bea", "Cy"])
        table.play(["wait 1"])
        table.app.part_status(PartStatus("reader", ok=False))
        table.play(["wait 1"])
        playing = state_of(table, broker, lambda data: data["game"] is not None)
        values = {name: render(c["value_template"], playing) for name, c in by_entity.items()}
        assert values["game"] == "Palourde" and values["players"] == "3"
        assert values["state"] == "playing" and values["reader_fault"] == "ON"
        assert values["display_fault"] == "OFF"
        assert values["turn"] not in ("None", "unknown")
        assert all(shown(by_entity[name], playing, release) == values[name]
                   for name in SENSORS for release in RELEASES)
        scores = json.loads(render(by_entity["players"]["json_attributes_template"], playing))
        assert sorted(scores) == sorted(p["name"] for p in json.loads(playing)["game"]["players"])
        # a state Home Assistant does not know is unknown, never a value outside its options
        odd = json.dumps({"activity": "dancing", "game": None, "faults": {}}).encode()
        assert [shown(by_entity["state"], odd, release) for release in RELEASES] == ["unknown"] * 2
        table.link.close(flush_s=WAIT_S)


def test_every_template_reads_the_emptied_payload_of_a_retirement_without_an_error(tmp_path):
    """`fleet retire` empties `state` and `online` after the configs; an entity Home Assistant
    has not removed yet reads them, and would log an error for each undefined `value_json`."""
    with running_broker(tmp_path) as broker:
        configs = announce(tmp_path, broker, "table-4", tmp_path / "s")
    templates = [template for config in configs.values() for template in
                 (config["value_template"], config.get("json_attributes_template"),
                  *(a["value_template"] for a in config["availability"])) if template]
    assert len(templates) == 8 + 1 + 8
    for payload in (b"", b"not json", b"\xff"):
        said = {render(template, payload, strict=True) for template in templates}
        assert said == {"unknown", "None", "OFF", "offline", "{}"}, payload


def test_retirement_empties_the_configs_before_the_state():
    from device.fleet.home_assistant import retirement
    topics = [topic for topic, payload in retirement("table-4") if payload == b""]
    assert len(topics) == len(retirement("table-4")) == 10
    assert all(topic.startswith("homeassistant/") for topic in topics[:8])
    assert topics[8:] == ["tabletop/table-4/state", "tabletop/table-4/online"]


def state_of(table: CafeTable, broker, ready=lambda data: True) -> bytes:
    """The table's retained state message once `ready` holds for it."""
    for _ in range(200):
        payload = fetch_retained(settings_for(broker), "tabletop/table-4/state").get(
            "tabletop/table-4/state")
        if payload and ready(json.loads(payload)):
            return payload
        table.play(["wait 1"])
    raise AssertionError("the table's state never reached the broker")


def test_a_renamed_table_keeps_its_device_and_takes_its_old_name_away(tmp_path, monkeypatch):
    paused: list[float] = []
    # the new configs go RENAME_PAUSE_S after the old ones are emptied: here, at once
    monkeypatch.setattr(plugin, "_later", lambda delay, send: (paused.append(delay), send()))
    with running_broker(tmp_path) as broker:
        state_dir = tmp_path / "s"
        before = announce(tmp_path, broker, "table-4", state_dir)
        after = announce(tmp_path, broker, "bar-1", state_dir)
        assert all("/tabletop_bar-1/" in topic for topic in after)       # the old name's are gone
        for key in ("unique_id", "default_entity_id", "object_id"):     # its entity ids too
            ids = sorted(config[key] for config in after.values())
            assert ids == sorted(config[key] for config in before.values()), key
        assert {c["device"]["name"] for c in after.values()} == {"Tabletop bar-1"}
    assert paused == [home_assistant.RENAME_PAUSE_S]            # once: for the rename only


class Published:
    """A link as announce() uses it: what it was given to publish, in order."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        assert retain
        self.messages.append((topic, payload))


def test_a_rename_empties_the_old_configs_and_sends_the_new_ones_after_a_pause(tmp_path):
    """Home Assistant 2024.1, sent both at once, gave the new entities the old ids with `_2`:
    it had not removed the old entities yet."""
    later: list[tuple[float, object]] = []
    link = Published()
    plugin.announce("table-4", tmp_path, [])(link)                  # first announcement
    assert len(link.messages) == 8 and all(payload for _, payload in link.messages)
    link.messages.clear()
    plugin.announce("bar-1", tmp_path, [], later=lambda delay, send: later.append((delay, send)))(link)
    assert [topic for topic, payload in link.messages if payload == b""] == \
        [topic for topic, _ in link.messages]                        # only the old name's, emptied
    assert len(link.messages) == 8 and all("/tabletop_table-4/" in t for t, _ in link.messages)
    [(delay, send)] = later
    assert delay == home_assistant.RENAME_PAUSE_S > 0
    send()
    configs = link.messages[8:]
    assert len(configs) == 8 and all("/tabletop_bar-1/" in t and p for t, p in configs)
    link.messages.clear()
    plugin.announce("bar-1", tmp_path, [], later=lambda delay, send: later.append((delay, send)))(link)
    assert len(link.messages) == 8 and len(later) == 1          # no rename: at once, no pause


@pytest.mark.parametrize("text", ["", "{", '{"id": "not hex"}', '[1]', '{"id": "' + "a" * 32 + '", "x": 1}'])
def test_an_unreadable_table_id_is_set_aside_and_made_again(tmp_path, text):
    (tmp_path / FILE).write_text(text)
    made = identity(tmp_path)
    assert len(made.id) == 32 and identity(tmp_path) == made


def online_once(broker, ready) -> tuple[bool, str | None]:
    """The retained `online` of table-6 once `ready` holds for it: the broker takes a publish
    or notices a vanished client a moment after the link said so. Each look is a round trip
    to the broker; the bound only ends a failing test."""
    for _ in range(500):
        payload = fetch_retained(settings_for(broker), "tabletop/table-6/online").get(
            "tabletop/table-6/online")
        said = online_of(payload) if payload else None
        if said is not None and ready(said):
            return said
    raise AssertionError(f"table-6's online never got there: {payload!r}")


def test_online_says_since_when_and_the_last_will_says_gone(tmp_path):
    with running_broker(tmp_path) as broker:
        config = config_file(tmp_path, broker, "table-6")
        fleet = open_fleet(parse_config(config.read_text()), tmp_path / "s", lambda: "now")
        assert fleet.link.wait_up(WAIT_S)
        up, since = online_once(broker, lambda said: said[0])
        assert since is not None and since[:2] == "20"
        fleet.link.close(flush_s=WAIT_S)
        down, since = online_once(broker, lambda said: not said[0])
        assert since is not None and since[:2] == "20"
        # a table that vanishes without a goodbye: the broker sends its will, with no time
        script = textwrap.dedent(f"""
            import os
            from pathlib import Path
            from device.config import parse_config
            from device.fleet.plugin import open_fleet
            config = parse_config(open({str(config)!r}).read())
            fleet = open_fleet(config, Path({str(tmp_path / "s2")!r}), lambda: "now")
            assert fleet.link.wait_up(30)
            print("up", flush=True)
            os._exit(0)
        """)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=60)
        assert done.stdout.strip() == "up" and "Traceback" not in done.stderr, done.stderr
        assert online_once(broker, lambda said: said[1] is None) == (False, None)


def test_online_payloads_of_older_tables_and_hostile_ones(tmp_path):
    assert online_of(b"true") == (True, None) and online_of(b"false") == (False, None)
    for payload in (b"", b"yes", b'{"schema": 1, "online": "true"}', b"\xff", b"[]" * 10000):
        assert online_of(payload) is None


def test_a_table_is_a_home_assistant_device_until_retired(tmp_path, capsys):
    with running_broker(tmp_path) as broker:
        config = config_file(tmp_path, broker, "table-4")
        announce(tmp_path, broker, "table-4", tmp_path / "s")
        assert main(["fleet", "retire", "table-4", "--config", str(config)]) == 0
        assert "table-4 retired" in capsys.readouterr().out
        assert fetch_retained(settings_for(broker), "homeassistant/#") == {}
        assert fetch_retained(settings_for(broker), "tabletop/table-4/#") == {}


def test_discovery_is_off_when_the_config_says_so(tmp_path):
    with running_broker(tmp_path) as broker:
        config = config_file(tmp_path, broker, "table-5")
        text = config.read_text() + "home_assistant = false\n"
        fleet = open_fleet(parse_config(text), tmp_path / "s", lambda: "now")
        assert fleet.link.wait_up(WAIT_S)
        fleet.link.close(flush_s=WAIT_S)
        assert fetch_retained(settings_for(broker), "homeassistant/#") == {}
        online = fetch_retained(settings_for(broker), "tabletop/table-5/#")
        assert list(online) == ["tabletop/table-5/online"] and decode(b"{}") is None
        assert not (tmp_path / "s" / FILE).exists()
