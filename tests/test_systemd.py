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
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from device import parts as appliance
from device.assembly import start_from_flags
from device.cli import build_parser
from device.config import Config
from device.inputs import Placed
from device.loop import Frames, run_forever
from device.service import Service
from device.ui.render import render
from device.ui.screen import Screen

from .device.table import SimTable

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tabletop.service"
INSTALL = ROOT / "systemd" / "install.sh"
PI_CHECK = ROOT / "tools" / "pi-check.sh"
NOBODY = 65534                 # the unprivileged uid and gid every Linux has
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


@pytest.fixture(scope="module")
def shellcheck_said() -> dict[Path, list[str]] | None:
    """What shellcheck says of each script, a `file:line:column: level: ...` line a finding: one
    run for both (its start-up is most of a run's CPU); None without shellcheck."""
    if shutil.which("shellcheck") is None:
        return None
    done = subprocess.run(["shellcheck", "--format=gcc", str(INSTALL), str(PI_CHECK)],
                          capture_output=True, text=True)
    said = {script: [line for line in done.stdout.splitlines() if line.startswith(f"{script}:")]
            for script in (INSTALL, PI_CHECK)}
    # 0: nothing found; 1: findings, each on a script's line; anything else: shellcheck failed
    assert done.returncode == (1 if any(said.values()) else 0), done.stdout + done.stderr
    return said


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_install_script_passes_shellcheck(shellcheck_said):
    assert shellcheck_said[INSTALL] == []


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

    def settle(self) -> bool:
        return False

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
    table = SimTable(tmp_path)
    app = table.app
    flags = argparse.Namespace(game="palourde", players="Ann,Bob", first=None, option=[])
    assert start_from_flags(app, flags) is None
    app.handle(Placed(table.registry.sim_uid("clam#1")))
    panel = Panel()
    monkeypatch.setattr(appliance, "ReaderLoop", Idle)
    monkeypatch.setattr(appliance, "open_buttons", lambda config, inputs: None)
    monkeypatch.setattr(appliance, "open_panel", lambda config, on_status=None: panel)
    monkeypatch.setattr(appliance, "Service", StoppedBySystemd)
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        assert appliance.run_appliance(app, Config()) == 0
    finally:
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
    assert panel.paused.tobytes() == render(Screen("TABLETOP", "", ("Paused",))).tobytes()
    assert app.store.journal is None                     # closed, every line on disk
    replay = SimTable(tmp_path)
    replay.app.resume_game()
    assert replay.app.session.state == app.session.state


# ---- the install script, on a stand-in machine ------------------------------------------
# TABLETOP_INSTALL_ROOT puts its files under a temp folder; the commands that would
# change the machine are stand-ins on PATH that log their arguments and keep their
# state (packages, users, groups) in files. The venv's python and tabletop are this
# checkout's, so the config it writes and the buses it reads are the real ones.

STUBS = {
    "apt-get": """
        if [ "$1" = install ]; then
            for p in "$@"; do case $p in -*|install) ;; *) echo "$p" >> "$FAKE/packages" ;; esac; done
        fi""",
    # apt-cache show: a record for each package it has (all but python3-lgpio), 100 if one is missing
    "apt-cache": """
        status=0
        for p in "$@"; do
            case $p in show|-*) ;;
                python3-lgpio) echo "N: Unable to locate package $p" >&2; status=100 ;;
                *) printf 'Package: %s\\nVersion: 1.0\\n\\n' "$p" ;; esac
        done
        exit $status""",
    # dpkg-query -W -f='${Package}\t${Status}\n' PACKAGE...: a line for each installed one
    "dpkg-query": """
        status=0
        for p in "$@"; do
            case $p in -*) continue ;; esac
            if listed "$FAKE/packages" "$p"; then printf '%s\\tinstall ok installed\\n' "$p"
            else echo "dpkg-query: no packages found matching $p" >&2; status=1; fi
        done
        exit $status""",
    "getent": """
        shift; status=0
        for g in "$@"; do
            if listed "$FAKE/groups" "$g"; then echo "$g:x:999:"; else status=2; fi
        done
        exit $status""",
    "groupadd": """for g in "$@"; do :; done; echo "$g" >> "$FAKE/groups" """,
    "useradd": """for u in "$@"; do :; done; echo "$u" > "$FAKE/user" """,
    "usermod": """echo "$3" >> "$FAKE/membership" """,
    "id": """
        [ -f "$FAKE/user" ] || exit 1
        if [ "$1" = -nG ]; then
            printf '%s ' tabletop
            [ -f "$FAKE/membership" ] && while IFS= read -r g; do printf '%s ' "$g"; done < "$FAKE/membership"
        fi
        exit 0""",
    # the owner a rewritten file keeps is real (a plain chown would need the service's user)
    "chown": """case $1 in --reference=*) exec /bin/chown "$@" ;; esac; exit 0""",
    "raspi-config": """
        # 0 is "on": the serial console starts on, the buses off
        case $2 in get_serial_cons) listed "$FAKE/raspi" serial_cons && echo 1 || echo 0 ;;
                   get_*) listed "$FAKE/raspi" "${2#get_}" && echo 0 || echo 1 ;;
                   do_*) echo "${2#do_}" >> "$FAKE/raspi" ;; esac""",
    "systemctl": """
        case $1 in
            is-enabled) [ -f "$FAKE/enabled" ] ;;
            is-active) [ -f "$FAKE/active" ] ;;
            enable) touch "$FAKE/enabled" ;;
            start|restart) touch "$FAKE/active" ;;
            disable) rm -f "$FAKE/enabled" "$FAKE/active" ;;
        esac""",
    "python3": """
        if [ "$1" = -m ] && [ "$2" = venv ]; then
            for v in "$@"; do :; done
            mkdir -p "$v/bin" "$v/lib/site"
            for f in python pip tabletop; do cp "$FAKE/venv-$f" "$v/bin/$f"; done
            exit 0
        fi
        exec "$REAL_PYTHON" "$@" """,
}

VENV_PROGRAMS = {
    "python": """
        export PYTHONPATH="${0%/*}/../lib/site:$CHECKOUT"
        exec "$REAL_PYTHON" "$@" """,
    "pip": """
        if [ "$1" = show ]; then echo "Version: 0.1.0"; exit 0; fi
        [ "$3" = lgpio ] && touch "${0%/*}/../lib/site/lgpio.py"; exit 0""",
    "tabletop": """
        if [ "$1" = completion ]; then
            [ -n "${FAKE_COMPLETION:-}" ] || exit 2
            echo "complete -F _tabletop_$2 tabletop"; exit 0
        fi
        export PYTHONPATH="$CHECKOUT"
        exec "$REAL_PYTHON" -m device.cli "$@" """,
}

# `listed FILE WORD`: a line of FILE is WORD (grep -qx, without starting a grep)
LISTED = """listed() {
    [ -f "$1" ] || return 1
    while IFS= read -r line; do [ "$line" = "$2" ] && return 0; done < "$1"
    return 1
}
"""

MUTATING = ("apt-get", "groupadd", "useradd", "usermod", "chown", "pip", "python3 -m venv",
            "systemctl enable", "systemctl start", "systemctl restart", "systemctl disable",
            "systemctl daemon-reload", "raspi-config nonint do_")


class Machine:
    """A stand-in machine for install.sh: a root folder, the stand-in commands and their log."""

    def __init__(self, path: Path, systemd: bool = False, raspi_config: bool = True) -> None:
        self._at(path)
        bin_dir = path / "bin"
        for folder in (self.root / "etc" / "polkit-1" / "rules.d", self.root / "boot" / "firmware",
                       self.fake, bin_dir):
            folder.mkdir(parents=True)
        (self.root / "boot" / "firmware" / "config.txt").write_text("# firmware settings\n")
        (self.root / "boot" / "firmware" / "cmdline.txt").write_text(
            "console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n")
        if systemd:
            (self.root / "run" / "systemd" / "system").mkdir(parents=True)
        (self.fake / "groups").write_text("dialout\n")
        # the stand-ins' own names by the shell's expansion, and their state files read by the
        # shell: a basename or grep process per call was a fifth of what an install here started
        log = '{ printf "%s" "${0##*/}"; printf " %s" "$@"; echo; } >> "$FAKE/log"\n'
        for name, body in STUBS.items():
            if name == "raspi-config" and not raspi_config:
                continue
            stub = bin_dir / name
            stub.write_text(f"#!/bin/sh\n{log}{LISTED}{body.strip()}\n")
            stub.chmod(0o755)
        for name, body in VENV_PROGRAMS.items():
            stub = self.fake / f"venv-{name}"
            stub.write_text(f"#!/bin/sh\n{log if name == 'pip' else ''}{body.strip()}\n")
            stub.chmod(0o755)

    def _at(self, path: Path) -> None:
        self.root, self.fake = path / "root", path / "fake"
        self.env = {"PATH": f"{path / 'bin'}:/usr/bin:/bin", "FAKE": str(self.fake),
                    "LANG": "C.UTF-8", "TABLETOP_INSTALL_ROOT": str(self.root),
                    "REAL_PYTHON": sys.executable, "CHECKOUT": str(ROOT), "HOME": str(path),
                    "PYTHONDONTWRITEBYTECODE": "1"}

    def copy(self, path: Path) -> Machine:
        """Another machine as this one is: its files, the stand-ins and what they keep."""
        shutil.copytree(self.root.parent, path, symlinks=True, dirs_exist_ok=True)
        twin = Machine.__new__(Machine)
        twin._at(path)
        return twin

    def install(self, *options: str, script: Path = INSTALL, **env: str) -> subprocess.CompletedProcess:
        (self.fake / "log").write_text("")
        done = subprocess.run(["bash", str(script), *options], capture_output=True, text=True,
                              env=self.env | env, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    def calls(self) -> list[str]:
        return (self.fake / "log").read_text().splitlines()

    def changes(self) -> list[str]:
        return [call for call in self.calls() if call.startswith(MUTATING)]

    def file(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    def snapshot(self) -> dict[str, bytes]:
        return {str(path.relative_to(self.root.parent)): path.read_bytes() if path.is_file() else b""
                for folder in (self.root, self.fake) for path in sorted(folder.rglob("*"))
                if path.name != "log"}


def changed_lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if "changed:" in line]


class Installed(NamedTuple):
    """A machine after its first install: what the install printed and the commands it ran."""

    machine: Machine
    done: subprocess.CompletedProcess
    calls: list[str]


def first_install(path: Path, *options: str, systemd: bool) -> Installed:
    machine = Machine(path, systemd=systemd)
    done = machine.install(*options)
    return Installed(machine, done, machine.calls())


# The tests that start from the same first install share it (each changes a copy)

@pytest.fixture(scope="module")
def rc522_installed(tmp_path_factory) -> Installed:
    """A machine with systemd after `install.sh --reader rc522 --display ssd1306`."""
    return first_install(tmp_path_factory.mktemp("rc522"), "--reader", "rc522", "--display",
                         "ssd1306", systemd=True)


@pytest.fixture(scope="module")
def chroot_installed(tmp_path_factory) -> Installed:
    """A machine without systemd running (a chroot) after a bare `install.sh`."""
    return first_install(tmp_path_factory.mktemp("chroot"), systemd=False)


@pytest.mark.skipif(shutil.which("raspi-config", path="/usr/bin:/bin") is not None,
                    reason="this machine has raspi-config, which install.sh would use instead")
def test_a_dry_run_prints_every_change_and_makes_none(tmp_path):
    machine = Machine(tmp_path, raspi_config=False)     # the buses go in config.txt
    before = machine.snapshot()
    done = machine.install("--dry-run", "--reader", "pn532", "--display", "sh1106")
    assert machine.snapshot() == before and machine.changes() == []
    out = done.stdout
    for expected in ("would run: apt-get update", "would run: groupadd --system gpio",
                     "would run: python3 -m venv --system-site-packages /", "/opt/tabletop",
                     "would change: wrote the default config (reader pn532, display sh1106)",
                     "Buses the config uses: UART0 I2C1", "would change: added 'enable_uart=1'",
                     "would change: added 'dtparam=i2c_arm=on'", "would write: " + str(machine.root),
                     "would run: sed -E -i", "would change: removed the serial console",
                     "would change: installed the unit", "Dry run: "):
        assert expected in out, out
    assert "spi=on" not in out                    # a PN532 leaves SPI alone
    assert "changed:" not in out


def test_the_install_writes_the_chosen_parts_and_enables_their_buses(tmp_path):
    machine = Machine(tmp_path)
    done = machine.install("--reader", "pn532", "--display", "sh1106")
    # apt is updated first, and lgpio comes from PyPI where apt has none
    apt = [call for call in machine.calls() if call.startswith("apt-get")]
    assert apt[0] == "apt-get update -q" and apt[1].startswith("apt-get install")
    assert "python3-lgpio" not in apt[1] and "python3-spidev" in apt[1]
    assert "apt has no python3-lgpio: the venv gets it from PyPI instead" in done.stdout
    assert "pip install --quiet lgpio" in machine.calls()
    assert machine.file("/opt/tabletop/lib/site/lgpio.py").exists()
    config = machine.file("/etc/tabletop/config.toml").read_text()
    reader, display = config.split("[reader]")[1].split("[display]")
    assert 'kind = "pn532"' in reader and 'kind = "sh1106"' in display.split("\n[")[0]
    assert (machine.fake / "raspi").read_text().split() == ["i2c", "serial_hw", "serial_cons"]
    assert "Reboot" in done.stdout
    later = machine.install("--reader", "rc522")     # a later run changes only what it names
    assert 'kind = "rc522"' in machine.file("/etc/tabletop/config.toml").read_text()
    assert 'kind = "sh1106"' in machine.file("/etc/tabletop/config.toml").read_text()
    assert "Buses the config uses: I2C1 SPI0" in later.stdout
    assert "spi" in (machine.fake / "raspi").read_text().split()


def test_a_second_install_changes_nothing_and_uninstall_removes_what_it_added(tmp_path, rc522_installed):
    first, installed = rc522_installed.done, rc522_installed.machine
    assert changed_lines(first) and "systemctl enable tabletop" in rc522_installed.calls
    assert "systemctl restart tabletop" in rc522_installed.calls
    command = installed.file("/usr/local/bin/tabletop").read_text()
    assert "/opt/tabletop/bin/tabletop" in command and str(installed.root) not in command
    machine = installed.copy(tmp_path)
    before = machine.snapshot()
    second = machine.install("--reader", "rc522", "--display", "ssd1306")
    assert changed_lines(second) == [] and machine.changes() == []
    assert "running, nothing changed" in second.stdout and machine.snapshot() == before
    assert machine.install("--uninstall", "--dry-run").stdout.count("would change: removed") == 4
    assert machine.snapshot() == before
    machine.install("--uninstall")
    for gone in ("/opt/tabletop", "/etc/systemd/system/tabletop.service", "/usr/local/bin/tabletop",
                 "/etc/polkit-1/rules.d/50-tabletop.rules"):
        assert not machine.file(gone).exists(), gone
    assert machine.file("/etc/tabletop/config.toml").exists()            # the config is kept
    assert "systemctl disable --now tabletop" in machine.calls()


def test_a_rerun_keeps_the_config_readable_by_the_service(tmp_path, rc522_installed):
    """install.sh run again with a change rewrites the config in place: its owner, group and
    mode stay, so the service's user still reads it; a config left as root's own by an older
    install is given back to the service's group."""
    machine = rc522_installed.machine.copy(tmp_path)
    config = machine.file("/etc/tabletop/config.toml")
    if os.geteuid() == 0:                  # the service's user, as far as this machine has one
        os.chown(config, NOBODY, NOBODY)
    config.chmod(0o640)
    before = config.stat()
    machine.install("--reader", "pn532")
    after = config.stat()
    assert 'kind = "pn532"' in config.read_text()
    assert (after.st_uid, after.st_gid, after.st_mode) == (before.st_uid, before.st_gid, before.st_mode)
    # an older install wrote it as root:root 0600; the service's group exists on this machine
    with (machine.fake / "groups").open("a") as groups:
        groups.write("tabletop\n")
    config.chmod(0o600)
    done = machine.install("--reader", "pn532")
    assert f"chown root:tabletop {config}" in machine.calls()
    assert "let the group tabletop read" in done.stdout
    assert config.stat().st_mode & 0o040


def test_without_systemd_it_installs_the_unit_but_leaves_it_alone(tmp_path, chroot_installed):
    machine, done = chroot_installed.machine, chroot_installed.done   # no /run/systemd/system
    assert "systemd is not running here" in done.stdout
    assert machine.file("/etc/systemd/system/tabletop.service").read_text() == UNIT.read_text()
    assert not [call for call in chroot_installed.calls if call.startswith("systemctl")]
    assert "not enabled or started" in done.stdout
    booted = Machine(tmp_path / "booted", systemd=True)
    assert "not enabled or started" in booted.install("--no-systemd", "--dry-run").stdout
    assert not [call for call in booted.calls() if call.startswith("systemctl")]


def test_fleet_installs_the_drop_in_before_the_service_restarts_and_uninstall_removes_it(tmp_path):
    machine = Machine(tmp_path, systemd=True)
    dropin = machine.file("/etc/systemd/system/tabletop.service.d/fleet.conf")
    machine.install()
    assert not dropin.exists()                          # a table outside the fleet: no drop-in
    done = machine.install("--fleet")
    assert dropin.read_text() == (ROOT / "systemd" / "tabletop-fleet.conf").read_text()
    assert done.stdout.index("installed " + str(dropin)) < done.stdout.index("Service ")
    assert "systemctl restart tabletop" in machine.calls()
    assert changed_lines(machine.install("--fleet")) == []
    machine.install("--uninstall")
    assert not dropin.exists()


def test_completion_is_installed_once_the_command_has_it(tmp_path, chroot_installed):
    assert "skipped: this tabletop has no 'tabletop completion bash' yet" in chroot_installed.done.stdout
    machine = chroot_installed.machine.copy(tmp_path)
    bash = machine.file("/usr/share/bash-completion/completions/tabletop")
    assert not bash.exists()
    machine.install(FAKE_COMPLETION="1")
    assert bash.read_text() == "complete -F _tabletop_bash tabletop\n"
    assert machine.file("/usr/share/zsh/vendor-completions/_tabletop").exists()
    machine.install("--uninstall")
    assert not bash.exists()


@pytest.mark.parametrize("options", [["--reader", "pn999"], ["--display"], ["--reader", "sim"]])
def test_the_install_script_refuses_parts_it_does_not_know(options):
    done = subprocess.run(["bash", str(INSTALL), *options], capture_output=True, text=True)
    assert done.returncode == 2 and "--reader rc522|pn532" in done.stderr


# ---- make pi-check -------------------------------------------------------------------------
# Building the arm64 root takes minutes: the tests only check how the script starts.



def test_pi_check_parses_and_passes_shellcheck(shellcheck_said):
    assert subprocess.run(["bash", "-n", str(PI_CHECK)]).returncode == 0
    if shellcheck_said is not None:
        assert shellcheck_said[PI_CHECK] == []


def test_pi_check_says_it_needs_root(tmp_path):
    # the script comes on stdin: the unprivileged user may not read a checkout kept under
    # a folder only root reads
    command = ["bash", "-s"]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to drop it")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    done = subprocess.run(command, input=PI_CHECK.read_text(), capture_output=True, text=True,
                          cwd="/", env={"PATH": "/usr/bin:/bin", "PI_ROOT": str(tmp_path / "root")})
    assert done.returncode == 1 and "run it as root (sudo make pi-check)" in done.stderr
    assert not (tmp_path / "root").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="pi-check looks for debootstrap only as root")
def test_pi_check_says_what_is_missing_when_it_cannot_install_it(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")         # nothing installed
    (bin_dir / "dpkg-query").chmod(0o755)
    for tool in ("dirname", "grep", "sed", "head"):                 # and no apt-get
        (bin_dir / tool).symlink_to(shutil.which(tool))
    done = subprocess.run(["/bin/bash", str(PI_CHECK)], capture_output=True, text=True,
                          env={"PATH": str(bin_dir), "PI_ROOT": str(tmp_path / "root")})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "needs debootstrap qemu-user-static binfmt-support" in done.stderr
    assert not (tmp_path / "root").exists()


def test_pi_check_refuses_unknown_options():
    done = subprocess.run(["bash", str(PI_CHECK), "--frobnicate"], capture_output=True, text=True)
    assert done.returncode == 2 and "--rebuild" in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting needs root")
def test_pi_check_clean_leaves_what_is_mounted_in_the_root_alone(tmp_path):
    # a killed run can leave the host's /dev bound into the root: removing it must not empty it
    outside, root = tmp_path / "outside", tmp_path / "root"
    (outside / "keep").parent.mkdir()
    (outside / "keep").write_text("mine")
    (root / "dev").mkdir(parents=True)
    if subprocess.run(["mount", "--bind", str(outside), str(root / "dev")]).returncode != 0:
        pytest.skip("bind mounts are not allowed here")
    try:
        done = subprocess.run(["bash", str(PI_CHECK), "--clean"], capture_output=True, text=True,
                              env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "PI_ROOT": str(root)})
    finally:
        subprocess.run(["umount", "-l", str(root / "dev")], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert not root.exists() and (outside / "keep").read_text() == "mine"


# ---- the buses' settings -------------------------------------------------------------------

def test_i2c_runs_at_400_khz_unless_told_and_is_set_in_place(tmp_path):
    machine = Machine(tmp_path)
    config_txt = machine.file("/boot/firmware/config.txt")
    done = machine.install("--display", "ssd1306")
    assert "changed: added 'dtparam=i2c_arm_baudrate=400000'" in done.stdout
    done = machine.install("--i2c-khz", "100")
    assert "changed: set 'dtparam=i2c_arm_baudrate=100000'" in done.stdout
    assert config_txt.read_text().count("i2c_arm_baudrate") == 1
    assert "i2c_arm_baudrate" not in "".join(changed_lines(machine.install("--i2c-khz=100")))


@pytest.mark.parametrize("khz", ["0", "fast", "9", ""])
def test_an_i2c_speed_out_of_range_is_refused(khz):
    done = subprocess.run(["bash", str(INSTALL), "--i2c-khz", khz], capture_output=True, text=True)
    assert done.returncode == 2 and "a whole number of kHz, 10 to 400" in done.stderr


@pytest.mark.parametrize("khz", ["401", "1000", "2000"])
def test_an_i2c_speed_past_the_oleds_400_khz_is_refused_with_the_reason(khz):
    done = subprocess.run(["bash", str(INSTALL), "--i2c-khz", khz], capture_output=True, text=True)
    assert done.returncode == 2
    assert "the SSD1306 and SH1106 are specified to 400 kHz on I2C (fast mode)" in done.stderr


def pi5(machine: Machine) -> None:
    tree = machine.file("/proc/device-tree")
    tree.mkdir(parents=True)
    (tree / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")


@pytest.mark.parametrize("raspi_config", [True, False])
def test_a_pi5_pn532_gets_uart0_not_the_debug_connector(tmp_path, raspi_config):
    machine = Machine(tmp_path, raspi_config=raspi_config)
    pi5(machine)
    done = machine.install("--reader", "pn532")
    config_txt = machine.file("/boot/firmware/config.txt").read_text()
    assert "changed: added 'dtparam=uart0=on'" in done.stdout
    assert "dtparam=uart0=on" in config_txt.splitlines() and "enable_uart=1" not in config_txt
    if raspi_config:
        assert "serial_hw" not in (machine.fake / "raspi").read_text().split()
    assert changed_lines(machine.install("--reader", "pn532")) == []


def test_before_a_pi5_a_pn532_gets_enable_uart(tmp_path):
    machine = Machine(tmp_path, raspi_config=False)
    tree = machine.file("/proc/device-tree")
    tree.mkdir(parents=True)
    (tree / "model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    done = machine.install("--reader", "pn532")
    assert "changed: added 'enable_uart=1'" in done.stdout and "uart0" not in done.stdout


def test_bytecode_written_in_the_checkout_is_no_reason_to_install_again(tmp_path):
    """Python writes a .pyc through a temporary file beside it: a run of install.sh that looks
    while one is written, or after, finds the same source and installs nothing."""
    source = tmp_path / "checkout"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".cache", "build", "*.egg-info", "tests", "docs", "__pycache__",
        ".*_cache", ".hypothesis"))       # mypy's, ruff's and hypothesis's: 17 MB of 20
    script = source / "systemd" / "install.sh"
    machine = Machine(tmp_path / "machine")
    assert any("installed tabletop-companion" in line
               for line in changed_lines(machine.install(script=script)))
    cache = source / "engine" / "__pycache__"
    cache.mkdir(exist_ok=True)
    (cache / "registry.cpython-311.pyc.140213").write_bytes(b"half a pyc")
    assert changed_lines(machine.install(script=script)) == []
    (source / "engine" / "core" / "spec.py").write_text("# changed\n", encoding="utf-8")
    assert any("installed tabletop-companion" in line
               for line in changed_lines(machine.install(script=script)))
