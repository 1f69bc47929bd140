"""Home Assistant's MQTT discovery against a real Mosquitto: a table announces itself as a
device when it connects, and `tabletop fleet retire` takes it away."""
from __future__ import annotations

import json

from device.cli import main
from device.config import parse_config
from device.fleet.link import fetch_retained
from device.fleet.plugin import open_fleet
from device.fleet.topics import decode
from tests.device.fleet_tables import settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import WAIT_S, config_file


def test_a_table_is_a_home_assistant_device_until_retired(tmp_path, capsys):
    with running_broker(tmp_path) as broker:
        config = config_file(tmp_path, broker, "table-4")
        fleet = open_fleet(parse_config(config.read_text()), tmp_path / "s", lambda: "now")
        assert fleet.link.wait_up(WAIT_S)
        fleet.link.close(flush_s=WAIT_S)
        found = fetch_retained(settings_for(broker), "homeassistant/#")
        configs = {topic.split("/")[3]: json.loads(payload) for topic, payload in found.items()}
        assert sorted(configs) == ["game", "leader", "players", "state", "turn"]
        game = configs["game"]
        assert game["unique_id"] == "tabletop_table-4_game"
        assert game["device"]["identifiers"] == ["tabletop_table-4"]
        assert game["state_topic"] == "tabletop/table-4/state"
        assert (game["availability_topic"], game["payload_available"],
                game["payload_not_available"]) == ("tabletop/table-4/online", "true", "false")
        assert len({c["unique_id"] for c in configs.values()}) == 5
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
        assert online == {"tabletop/table-5/online": b"false"} and decode(b"{}") is None
