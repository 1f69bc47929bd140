"""docs/node-red-flow.json: an importable Node-RED flow that reads the tables' finished games.

Its function node is run in headless Chromium (the JavaScript Node-RED runs), on the finished
message docs/fleet.md documents and on what a hostile client could publish."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from device.fleet.topics import table_of
from tests.device.browsers import Tab

DOCS = Path(__file__).parents[2] / "docs"
FLOW = json.loads((DOCS / "node-red-flow.json").read_text())
NODES = {node["id"]: node for node in FLOW}


def documented_finished() -> dict:
    text = (DOCS / "fleet.md").read_text()
    block = text.split("### `finished`", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block)


def test_the_flow_is_wired_and_reads_the_finished_topic():
    assert len(NODES) == len(FLOW)
    for node in FLOW:
        for wire in node.get("wires", []):
            assert all(target in NODES for target in wire)
        assert node.get("z") in (None, *NODES)
        if node["type"] == "mqtt in":
            assert node["broker"] in NODES
    [reader] = [n for n in FLOW if n["type"] == "mqtt in"]
    assert reader["datatype"] == "json" and reader["qos"] == "1"
    assert table_of(reader["topic"].replace("+", "table-3")) == ("table-3", "finished")
    assert "node-red-flow.json" in (DOCS / "fleet.md").read_text()


def test_the_winners_are_logged_to_the_console_as_well_as_the_sidebar():
    """A headless Node-RED (a service, no editor open) has only its console, its journal."""
    [debug] = [n for n in FLOW if n["type"] == "debug"]
    assert debug["active"] and debug["console"] is True and debug["tosidebar"] is True
    assert debug["complete"] == "payload" and debug["targetType"] == "msg"
    assert debug["id"] in NODES["tabletop-said"]["wires"][0]


@pytest.fixture(scope="module")
def chromium(shared_chromium):
    """One blank page for the module's scripts (a page of its own: no other test's)."""
    browser = Tab(shared_chromium)
    browser.open("about:blank")
    yield browser
    browser.close()


def said(chromium, payload):
    """What the function node sends on, for a message whose payload is `payload`."""
    body = NODES["tabletop-said"]["func"]
    out = chromium.run(f"const msg = {{payload: arguments[0]}};\nreturn (function (msg) {{\n{body}\n}})(msg);",
                       payload)
    return out["value"] if isinstance(out, dict) and "value" in out else out


def test_the_function_names_who_won_where(chromium):
    out = said(chromium, documented_finished())
    assert out["payload"] == "table-3: Ann won Palourde" and out["topic"] == "table-3"
    draw = {**documented_finished(), "winners": []}
    assert said(chromium, draw)["payload"] == "table-3: nobody won Palourde"


@pytest.mark.parametrize("payload", [None, "text", 3, [], {"winners": "Ann"}, {}])
def test_a_hostile_message_is_dropped(chromium, payload):
    assert said(chromium, payload) is None


def test_the_flow_names_no_real_host():
    broker = NODES["tabletop-broker"]["broker"]
    assert re.fullmatch(r"[a-z-]+\.local", broker)
