"""The service unit and install script, the watchdog, and a clean stop on SIGTERM."""
from __future__ import annotations

import argparse
import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from device import appliance
from device.cli import build_parser
from device.config import Config
from device.inputs import Placed
from device.loop import Frames, run_forever
from device.render import render
from device.run import start_from_flags
from device.screen import Screen
from device.service import Service

from .device.table import Table

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tabletop.service"
INSTALL = ROOT / "systemd" / "install.sh"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed "
                                   "(apt-get install systemd): the unit's checks are skipped")


def settings(path: Path = UNIT) -> dict[str, list[str]]:
    """Every `Key=value` of a unit file, repeated keys in order."""
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


# ---- the unit ------------------------------------------------------------------------------

def test_the_unit_is_a_watched_notify_service_that_restarts_on_failure():
    unit = settings()
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert float(unit["WatchdogSec"][0]) > 0
    assert unit["Restart"] == ["on-failure"] and "RestartSec" in unit
    assert "StartLimitIntervalSec" in unit and "StartLimitBurst" in unit
    assert unit["StateDirectory"] == ["tabletop"]


def test_the_unit_reaches_the_parts_through_groups_and_nothing_else():
    unit = settings()
    assert unit["User"] == ["tabletop"]
    assert set(unit["SupplementaryGroups"][0].split()) >= {"gpio", "spi", "i2c", "dialout"}
    assert unit["DevicePolicy"] == ["closed"]
    allowed = {entry.split()[0] for entry in unit["DeviceAllow"]}
    assert {"char-spi", "char-i2c", "char-gpiochip", "char-ttyAMA"} <= allowed
    assert "PrivateUsers" not in unit                    # it would cut the groups off
    assert unit.get("PrivateDevices", ["no"]) == ["no"]  # it would hide /dev/spidev*
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX"] and unit["IPAddressDeny"] == ["any"]


def test_the_unit_starts_a_command_the_cli_understands():
    command = shlex.split(settings()["ExecStart"][0].replace("%S", "/var/lib"))
    assert command[0].endswith("/tabletop")
    args = build_parser().parse_args(command[1:])
    assert args.command == "run" and str(args.state_dir) == "/var/lib/tabletop"


# the directories ProtectSystem=strict leaves writable, by the specifier of their root
WRITABLE_ROOTS = {"RuntimeDirectory": "%t", "StateDirectory": "%S", "CacheDirectory": "%C",
                  "LogsDirectory": "%L"}


def writable_directories(unit: dict[str, list[str]]) -> set[str]:
    """What a strict unit may write: its own *Directory= folders, ReadWritePaths=, /tmp."""
    found = {path.lstrip("-") for entry in unit.get("ReadWritePaths", []) for path in entry.split()}
    for key, root in WRITABLE_ROOTS.items():
        found |= {f"{root}/{name}" for entry in unit.get(key, []) for name in entry.split()}
    if unit.get("PrivateTmp") == ["yes"]:
        found |= {"/tmp", "/var/tmp"}
    return found


def environment(unit: dict[str, list[str]]) -> dict[str, str]:
    return dict(item.partition("=")[::2] for entry in unit.get("Environment", [])
                for item in shlex.split(entry))


def test_lgpio_gets_a_working_directory_it_may_write_under_the_hardening():
    # lgpio writes its notification pipes (.lgd-nfy*) to LG_WD, else the working directory
    unit = settings()
    assert unit["ProtectSystem"] == ["strict"] and unit["ProtectHome"] == ["yes"]
    assert unit["RuntimeDirectory"] == ["tabletop"]
    assert unit["WorkingDirectory"] == ["%t/tabletop"]
    assert environment(unit)["LG_WD"] == "%t/tabletop"
    writable = writable_directories(unit)
    assert unit["WorkingDirectory"][0] in writable and environment(unit)["LG_WD"] in writable
    assert unit.get("RuntimeDirectoryPreserve", ["no"]) == ["no"]   # no pipes left behind
    assert unit["RuntimeDirectoryMode"] == ["0700"]                 # nobody else's to read


def test_a_working_directory_outside_the_writable_ones_is_caught(tmp_path):
    text = UNIT.read_text().replace("WorkingDirectory=%t/tabletop", "WorkingDirectory=/opt/tabletop")
    (tmp_path / "tabletop.service").write_text(text)
    unit = settings(tmp_path / "tabletop.service")
    assert unit["WorkingDirectory"][0] not in writable_directories(unit)


@needs_analyze
def test_systemd_rates_the_unit_safe():
    done = subprocess.run([ANALYZE, "security", "--offline=yes", str(UNIT)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 0.6     # its rating before lgpio had a working directory


@needs_analyze
def test_systemd_verifies_the_unit(tmp_path):
    # verify checks that ExecStart's program exists: point it at one that does
    text = UNIT.read_text().replace("ExecStart=/opt/tabletop/bin/tabletop", "ExecStart=/bin/true")
    (tmp_path / "tabletop.service").write_text(text)
    done = subprocess.run([ANALYZE, "verify", str(tmp_path / "tabletop.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


# ---- the install script ------------------------------------------------------------------

def test_the_install_script_parses():
    done = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_install_script_passes_shellcheck():
    done = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_the_install_script_refuses_unknown_options():
    done = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert done.returncode == 2 and "--uninstall" in done.stderr


# ---- the watchdog --------------------------------------------------------------------------

class HangingApp:
    """Handles "hang" by blocking until released: a loop stuck in a driver call."""

    display_level, brightness = "normal", None

    def __init__(self) -> None:
        self.hung, self.release = threading.Event(), threading.Event()

    def handle(self, event) -> None:
        if event == "hang":
            self.hung.set()
            self.release.wait()

    def tick(self) -> None:
        pass

    def next_deadline(self) -> None:
        return None

    def screen(self) -> Screen:
        return Screen("TABLETOP")


def pending(sock: socket.socket) -> list[bytes]:
    sock.setblocking(False)
    found = []
    while True:
        try:
            found.append(sock.recv(64))
        except BlockingIOError:
            return found


def test_watchdog_pings_stop_while_the_loop_hangs(tmp_path):
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        # a 20 ms watchdog: the loop pings every 10 ms of its turns
        service = Service({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000"})
        app, inputs, stop = HangingApp(), queue.Queue(), threading.Event()
        loop = threading.Thread(target=run_forever, kwargs={
            "app": app, "inputs": inputs, "frames": Frames(), "clock": time.monotonic,
            "stop": stop, "heartbeat": service.alive})
        loop.start()
        try:
            inputs.put("turn")
            sock.settimeout(5)
            assert sock.recv(64) == b"WATCHDOG=1"
            inputs.put("hang")
            assert app.hung.wait(5)
            pending(sock)                                # pings sent before the hang
            sock.settimeout(0.3)                         # 30 watchdog periods
            with pytest.raises(TimeoutError):
                sock.recv(64)
            app.release.set()
            sock.settimeout(5)
            assert sock.recv(64) == b"WATCHDOG=1"        # the loop turns again: pings again
        finally:
            app.release.set()
            stop.set()
            inputs.put("turn")
            loop.join(5)
        assert not loop.is_alive()


# ---- SIGTERM -------------------------------------------------------------------------------

class Panel:
    def __init__(self) -> None:
        self.frames, self.paused = [], None

    def show(self, image) -> None:
        self.frames.append(image)

    def dim(self, on: bool) -> None:
        pass

    def contrast(self, level: int) -> None:
        pass

    def close(self, paused_image=None) -> None:
        self.paused = paused_image


class StoppedBySystemd:
    """A Service whose READY is answered with SIGTERM, as `systemctl stop` would."""

    def ready(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    def alive(self) -> None:
        pass

    def stopping(self) -> None:
        pass


class Idle:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


def test_sigterm_closes_the_journal_and_leaves_a_paused_frame(tmp_path, monkeypatch):
    table = Table(tmp_path)
    app = table.app
    flags = argparse.Namespace(game="palourde", players="Ann,Bob", first=None, option=[])
    assert start_from_flags(app, flags) is None
    app.handle(Placed(table.registry.sim_uid("clam#1")))
    panel = Panel()
    monkeypatch.setattr(appliance, "ReaderLoop", Idle)
    monkeypatch.setattr(appliance, "open_buttons", lambda config, inputs: None)
    monkeypatch.setattr(appliance, "open_panel", lambda config: panel)
    monkeypatch.setattr(appliance, "Service", StoppedBySystemd)
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        assert appliance.run_appliance(app, Config()) == 0
    finally:
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
    assert panel.paused.tobytes() == render(Screen("TABLETOP", "", ("Paused",))).tobytes()
    assert app.store.journal is None                     # closed, every line on disk
    replay = Table(tmp_path)
    replay.app.resume_game()
    assert replay.app.session.state == app.session.state
