"""Home Assistant's MQTT discovery against a real Mosquitto: a table announces itself as a
device when it connects, and `tabletop fleet retire` takes it away.

The discovery messages are read back from the broker, and their templates rendered the way
Home Assistant renders them (Jinja, `value_json` the parsed payload; a template that renders
`None` makes the entity unknown) against the state messages a real table publishes."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import jinja2
import pytest

from device.cli import main
from device.config import parse_config
from device.fleet.identity import FILE, identity
from device.fleet.link import fetch_retained
from device.fleet.plugin import open_fleet
from device.fleet.table_state import ACTIVITIES
from device.fleet.topics import decode, online_of
from device.inputs import PartStatus
from tests.device.fleet_tables import Table, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import WAIT_S, config_file

SENSORS = ["game", "leader", "players", "state", "turn"]
FAULTS = ["display_fault", "reader_fault", "storage_fault"]
JINJA = jinja2.Environment(undefined=jinja2.ChainableUndefined)


def render(template: str, payload: bytes) -> str:
    """A template as Home Assistant's MQTT integration renders it against a payload."""
    return JINJA.from_string(template).render(value_json=json.loads(payload)).strip()


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
        table = Table(tmp_path / "t", "table-4", settings_for(broker))
        assert table.link.wait_up(WAIT_S)
        idle = state_of(table, broker)
        values = {name: render(c["value_template"], idle) for name, c in by_entity.items()}
        assert values == {"game": "None", "turn": "None", "leader": "None", "players": "None",
                          "state": "idle", "reader_fault": "OFF", "display_fault": "OFF",
                          "storage_fault": "OFF"}
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
        assert values["turn"] != "None"
        scores = json.loads(render(by_entity["players"]["json_attributes_template"], playing))
        assert sorted(scores) == sorted(p["name"] for p in json.loads(playing)["game"]["players"])
        # a state Home Assistant does not know is unknown, never a value outside its options
        odd = json.dumps({"activity": "dancing", "game": None, "faults": {}}).encode()
        assert render(by_entity["state"]["value_template"], odd) == "None"
        table.link.close(flush_s=WAIT_S)


def state_of(table: Table, broker, ready=lambda data: True) -> bytes:
    """The table's retained state message once `ready` holds for it."""
    for _ in range(200):
        payload = fetch_retained(settings_for(broker), "tabletop/table-4/state").get(
            "tabletop/table-4/state")
        if payload and ready(json.loads(payload)):
            return payload
        table.play(["wait 1"])
    raise AssertionError("the table's state never reached the broker")


def test_a_renamed_table_keeps_its_device_and_takes_its_old_name_away(tmp_path):
    with running_broker(tmp_path) as broker:
        state_dir = tmp_path / "s"
        before = announce(tmp_path, broker, "table-4", state_dir)
        after = announce(tmp_path, broker, "bar-1", state_dir)
        assert all("/tabletop_bar-1/" in topic for topic in after)       # the old name's are gone
        ids = sorted(config["unique_id"] for config in after.values())
        assert ids == sorted(config["unique_id"] for config in before.values())
        assert {c["device"]["name"] for c in after.values()} == {"Tabletop bar-1"}


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
