"""Why the fleet is offline, on a real Mosquitto: in the admin menu and in `tabletop status`.

A broker that goes away, or a TLS client pointed at a plain port (which only ever sees its
connection reset), leaves the game playing; the running table leaves the reason where
`tabletop status` reads it, the admin menu lists "Fleet offline" and SELECT on it says why.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from types import SimpleNamespace

import pytest

from device.cli import main
from device.fleet import link as fleet_link
from device.fleet.retained import fetch_retained
from device.kiosk.admin import AdminMenu
from device.storage.status import FLEET_FILE, fleet_offline
from tests.device.fleet_tables import CafeTable, settings_for
from tests.device.mosquitto import running_broker
from tests.device.test_fleet import WAIT_S

pytestmark = pytest.mark.usefixtures("prompt_reconnects")   # tests/device/conftest.py


@pytest.fixture
def broker(tmp_path):
    with running_broker(tmp_path) as broker:
        yield broker


def status_of(table: CafeTable, capsys, *flags: str) -> str:
    main([*flags, "status", "--state-dir", str(table.app.store.dir)])
    return capsys.readouterr().out


def admin_lines(table: CafeTable) -> tuple[str, ...]:
    table.app.set_mode(AdminMenu(table.app.mode, system=None, staff="Zoe"))
    table.play(["wait 1"])
    return table.screens[-1].lines


def test_a_broker_gone_is_fleet_offline_with_why_until_it_is_back(tmp_path, broker, capsys):
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker))
    assert table.link.wait_up(WAIT_S)
    table.start("palourde", ["Ann", "Bob"])
    table.play(["tap clam#1", "wait 1"])
    assert "Fleet offline" not in status_of(table, capsys)
    broker.stop()
    why = table.wait_down(WAIT_S)
    assert why.startswith(f"cannot reach the broker at {broker.host}:{broker.port}: "
                          "ConnectionRefusedError")
    table.play(["tap clam#2", "wait 1", "press back"])        # the game plays on, and ticks
    assert [p["score"] for p in table.view()["players"]] == [2, 0]
    assert status_of(table, capsys).endswith(f"\nFleet offline: {why}\n")
    assert f"Réseau hors ligne\u00a0: {why}\n" in status_of(table, capsys, "--language", "fr")
    main(["status", "--state-dir", str(table.app.store.dir), "--json"])
    assert json.loads(capsys.readouterr().out)["fleet_offline"] == why

    assert admin_lines(table)[0] == "Fleet offline"
    table.play(["press select"])
    shown = " ".join(table.screens[-1].lines)
    assert shown.startswith("Fleet offline: cannot reach the broker")

    broker.start()
    assert table.link.wait_up(WAIT_S)
    table.play(["press back", "wait 1"])
    assert "Fleet offline" not in status_of(table, capsys)
    assert "Fleet offline" not in admin_lines(table)
    table.link.close(flush_s=0)


def test_tls_to_a_plain_port_is_named_a_tls_failure(tmp_path, broker, capsys):
    table = CafeTable(tmp_path / "t1", "t1", settings_for(broker, tls=True))
    why = table.wait_down(WAIT_S)
    assert "TLS failure: ConnectionResetError" in why and "handshake" in why
    table.play(["wait 1"])
    assert f"Fleet offline: cannot reach the broker at {broker.host}:{broker.port}: TLS failure: " \
        in status_of(table, capsys)
    table.plugin.close()
    assert "Fleet offline" not in status_of(table, capsys)     # no table runs: nothing to say


def test_a_note_left_by_a_table_that_died_says_nothing(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    note = tmp_path / FLEET_FILE
    note.write_text(json.dumps({"offline": "cannot reach the broker", "pid": int(gone.stdout)}))
    assert fleet_offline(tmp_path) is None
    for bad in ("[", '{"offline": 3, "pid": 1}', '{"offline": "x"}', "null"):
        note.write_text(bad)
        assert fleet_offline(tmp_path) is None


def test_a_port_that_takes_the_connection_and_never_speaks_is_offline_with_why(
        tmp_path, monkeypatch, capsys):
    """Without a word from the broker, the table says so within the connect timeout (made
    small here), in `status --json` too, and plays on."""
    monkeypatch.setattr(fleet_link, "CONNECT_TIMEOUT_S", 0.2)
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)                          # the kernel takes connections; no one answers
        where = SimpleNamespace(host="127.0.0.1", port=mute.getsockname()[1])
        table = CafeTable(tmp_path / "t1", "t1", settings_for(where))
        why = table.wait_down(WAIT_S)
        assert why == (f"no answer from the broker at 127.0.0.1:{where.port} within 0.2 s: "
                       "it takes connections but does not speak MQTT")
        table.start("palourde", ["Ann", "Bob"])
        table.play(["tap clam#1", "tap clam#2", "wait 1"])
        assert [p["score"] for p in table.view()["players"]] == [2, 0]
        main(["status", "--state-dir", str(table.app.store.dir), "--json"])
        assert json.loads(capsys.readouterr().out)["fleet_offline"] == why
        table.plugin.close()


def test_closing_a_link_ends_its_wait_before_it_tries_again(monkeypatch):
    """paho's thread waits BACKOFF_S before it connects again, and waits in the link's wait:
    paho's own would sleep it out a second at a time, and close() would wait for its thread.
    close() ends it. An hour here; the 30 s bounds only end a failing test."""
    monkeypatch.setattr(fleet_link, "BACKOFF_S", (3600, 3600))
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))            # a port nobody listens on: refused at once
        where = SimpleNamespace(host="127.0.0.1", port=closed.getsockname()[1])
    link = fleet_link.Link(settings_for(where), "tabletop-backoff")
    waiting, backing_off = threading.Event(), link._backing_off

    def noted() -> None:
        waiting.set()
        backing_off()

    link._client._reconnect_wait = noted
    link.start()
    assert waiting.wait(30), "paho's thread never waited in the link's wait (a paho that renamed it?)"
    closed_link = threading.Event()
    threading.Thread(target=lambda: (link.close(), closed_link.set()), daemon=True).start()
    assert closed_link.wait(30)
    assert link._client._thread is None          # paho's thread has ended


def test_a_command_told_no_by_the_brokers_host_says_so_at_once():
    """A one-shot command (`fleet shared`, `deck publish`) stops at the first refused
    connection, where a table keeps trying: its own timeout (an hour here) is never reached.
    The 30 s bound only ends a failing test."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))            # a port nobody listens on: refused at once
        where = SimpleNamespace(host="127.0.0.1", port=closed.getsockname()[1])
    said: list[str] = []
    done = threading.Event()

    def ask() -> None:
        try:
            fetch_retained(settings_for(where), "tabletop/shared/#", timeout=3600)
        except fleet_link.FleetUnavailable as exc:
            said.append(str(exc))
        done.set()

    threading.Thread(target=ask, daemon=True).start()
    assert done.wait(30)
    assert said == [f"cannot reach the broker at 127.0.0.1:{where.port}: "
                    "ConnectionRefusedError: [Errno 111] Connection refused"]
