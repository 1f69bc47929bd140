"""The checks of `tabletop doctor`, each giving Check lines: what was found and what to do.

A check never raises: whatever goes wrong becomes a FAIL line. With `sim` the
same checks look at the simulated parts (no device nodes, no groups, the sim
reader and display twins, the simulator's decks over the state dir's own).
"""
from __future__ import annotations

import grp
import importlib.metadata
import importlib.util
import os
import platform
import pwd
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import engine
from device.config import Config, ConfigFileError, load_config
from device.config.pins import buses, pin_conflicts
from device.config.secrets import secret_warnings
from device.install.distribution import extra_hint
from engine.core.text import render
from hardware import board

MB = 1024 * 1024
SPACE_FAIL, SPACE_WARN = 20 * MB, 200 * MB
CORE_PACKAGES = (("PIL", "pillow"), ("luma.oled", "luma.oled"), ("gpiozero", "gpiozero"),
                 ("serial", "pyserial"), ("tomli_w", "tomli-w"))
WIRING = "check its wiring and power"
BOOT_CONFIG = "/boot/firmware/config.txt"
ROOT = Path("/")                      # where the machine's files are (tests give a folder)
ENABLE = {   # what makes each group's device nodes appear
    "spi": f"sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in {BOOT_CONFIG}), reboot",
    "i2c": f"sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in {BOOT_CONFIG}), reboot",
    "dialout": f"sudo raspi-config nonint do_serial_hw 0 (or enable_uart=1 in {BOOT_CONFIG}), reboot",
    "gpio": "this is not a Raspberry Pi, or its GPIO driver is missing",
}


@dataclass(frozen=True)
class Check:
    status: str                       # OK, WARN or FAIL
    name: str
    detail: str
    fix: str = ""


def ok(name: str, detail: str) -> Check:
    return Check("OK", name, detail)


def user() -> str:
    return pwd.getpwuid(os.geteuid()).pw_name


# ---- software --------------------------------------------------------------------------------

def python_check() -> Check:
    version = platform.python_version()
    if sys.version_info < (3, 11):  # noqa: UP036  doctor may run under a python pip never vetted
        return Check("FAIL", "python", f"Python {version}", "Python 3.11 or newer is needed")
    return ok("python", f"Python {version} ({sys.executable})")


def package_checks(config: Config | None, sim: bool) -> list[Check]:
    wanted = list(CORE_PACKAGES)
    if not sim and config is not None:
        if any(bus.startswith("SPI") for bus in buses(config)):
            wanted.append(("spidev", "spidev"))
        if config.reader.kind == "mfrc522":
            wanted.append(("mfrc522", "mfrc522"))
        if platform.machine() in ("aarch64", "armv7l"):
            wanted.append(("lgpio", "lgpio"))
    return [_package(module, dist) for module, dist in wanted]


def _package(module: str, dist: str) -> Check:
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return Check("FAIL", "package", f"{dist} is missing", extra_hint("pi"))
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        version = "(system)"
    return ok("package", f"{dist} {version}")


def config_check(path: Path | None) -> tuple[Check, Config | None]:
    if path is None:
        return ok("config", "no config file: the defaults"), Config()
    try:
        config = load_config(path)
    except ConfigFileError as exc:
        return Check("FAIL", "config", str(exc),
                     "correct it; `tabletop config --example` shows every key"), None
    kiosk = "on" if config.kiosk.enabled else "off"
    warnings = secret_warnings(config, path)
    if warnings:                        # the fleet's secrets: a short key, a file others read
        return Check("WARN", "config", "; ".join(
            (f"{w.key}: " if w.key else "") + render(w.reason) for w in warnings),
            "a longer random key; chmod 640 the config"), config
    return ok("config", f"{path} (reader {config.reader.kind}, display {config.display.kind} "
                        f"on {config.display.bus}, kiosk {kiosk})"), config


def pin_check(config: Config) -> Check:
    problems = pin_conflicts(config)
    if problems:
        return Check("FAIL", "pins", "; ".join(map(str, problems)), "change the key it names")
    used = sorted(buses(config))
    return ok("pins", "no GPIO used twice" + (f"; buses {', '.join(used)}" if used else ""))


# ---- device nodes and groups -----------------------------------------------------------------

def nodes(config: Config) -> list[tuple[str, str]]:
    """The device nodes the configured parts open, each with the group that grants it."""
    reader, display = config.reader, config.display
    found: list[tuple[str, str]] = []
    if reader.kind in ("rc522", "mfrc522"):
        found.append((f"/dev/spidev{reader.spi_bus}.{reader.spi_device}", "spi"))
    elif reader.kind == "pn532":
        found.append((reader.serial_port, "dialout"))
    if display.kind != "sim" and display.bus == "spi":
        found.append((f"/dev/spidev{display.spi_bus}.{display.spi_device}", "spi"))
    elif display.kind != "sim":
        found.append((f"/dev/i2c-{display.i2c_port}", "i2c"))
    found.append((board.gpio_chip(ROOT), "gpio"))        # buttons, reset and DC lines
    return list(dict.fromkeys(found))


def device_checks(config: Config, sim: bool) -> list[Check]:
    if sim:
        return [ok("device", "simulated parts: no device nodes needed")]
    return [_node(path, group) for path, group in nodes(config)] + _console_check(config)


def _node(path: str, group: str) -> Check:
    node = Path(path)
    if not node.exists():
        fix = ENABLE[group]
        if group == "dialout" and board.is_pi5(board.model(ROOT)):
            fix = f"{board.UART_OVERLAY[True]} in {BOOT_CONFIG} (GPIO 14/15's UART on a Pi 5), reboot"
        return Check("FAIL", "device", f"{path} is missing", fix)
    if not os.access(node, os.R_OK | os.W_OK):
        info = node.stat()
        owner = grp.getgrgid(info.st_gid).gr_name
        return Check("FAIL", "device", f"{path}: no read/write access for {user()} "
                     f"(group {owner}, mode {stat.filemode(info.st_mode)})",
                     f"sudo usermod -aG {owner} {user()}, then log in again")
    target = f" -> {node.resolve()}" if node.is_symlink() else ""
    return ok("device", f"{path}{target} readable and writable")


def _console_check(config: Config) -> list[Check]:
    """A login console on the UART answers the PN532 with gibberish."""
    if config.reader.kind != "pn532":
        return []
    try:
        cmdline = Path("/proc/cmdline").read_text()
    except OSError:
        return []
    port = Path(config.reader.serial_port).resolve().name
    names = {"serial0", "ttyAMA0", "ttyS0", port}
    if any(f"console={name}," in cmdline for name in names):
        return [Check("FAIL", "device", f"a login console runs on {config.reader.serial_port}",
                      "sudo raspi-config nonint do_serial_cons 1, reboot")]
    return [ok("device", f"no console on {config.reader.serial_port}")]


def group_checks(config: Config, sim: bool) -> list[Check]:
    if sim:
        return [ok("groups", "simulated parts: no groups needed")]
    if os.geteuid() == 0:
        return [ok("groups", "root reaches every device; the service's user gets its groups "
                             "from the unit (SupplementaryGroups=)")]
    mine = set(os.getgroups())
    checks = []
    for group in dict.fromkeys(group for _, group in nodes(config)):
        try:
            gid = grp.getgrnam(group).gr_gid
        except KeyError:
            checks.append(Check("WARN", "groups", f"no group {group} on this system",
                                ENABLE[group]))
            continue
        if gid in mine:
            checks.append(ok("groups", f"{user()} is in {group}"))
        else:
            checks.append(Check("WARN", "groups", f"{user()} is not in {group}",
                                f"sudo usermod -aG {group} {user()}, then log in again"))
    return checks


# ---- the parts ---------------------------------------------------------------------------

def service_running() -> bool:
    """The installed service holds the reader and the panel: testing them now would disturb it."""
    if shutil.which("systemctl") is None:
        return False
    try:
        done = subprocess.run(["systemctl", "is-active", "--quiet", "tabletop"], timeout=10,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def stuck_button_checks() -> list[Check]:
    """The buttons the running service took as stuck (held past 30 s, no longer repeating) and
    saw no release of since: its log says each once, and the service's own run is asked."""
    def run(*command: str) -> str:
        try:
            return subprocess.run(command, timeout=10, capture_output=True, text=True).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
    if shutil.which("journalctl") is None or shutil.which("systemctl") is None:
        return []
    run_id = run("systemctl", "show", "-p", "InvocationID", "--value", "tabletop").strip()
    if not run_id:
        return []
    stuck: dict[str, bool] = {}
    for line in run("journalctl", f"_SYSTEMD_INVOCATION_ID={run_id}", "-o", "cat",
                    "--no-pager", "-g", "buttons: ").splitlines():
        words = line.split("buttons: ", 1)[-1].split()
        if words[1:3] in (["held", "down"], ["released:", "it"]):
            stuck[words[0]] = words[1] == "held"
    named = [button for button, held in stuck.items() if held]
    return [Check("WARN", "buttons", f"{', '.join(named)} held down past 30 s: stuck, it no "
                  "longer repeats", "free it; if it stays down, check the button and its "
                  "wire")] if named else []


def reader_check(config: Config, sim: bool) -> Check:
    if sim or config.reader.kind == "sim":
        from hardware.sim import SimReader
        found = SimReader().poll()
        return ok("reader", f"simulated reader answers ({'a card' if found else 'no card'} on it)")
    from device.parts import open_reader_now
    try:
        part = open_reader_now(config)
        try:
            uid = part.poll()
        finally:
            part.close()
    except Exception as exc:           # every driver error is a finding here
        return Check("FAIL", "reader", f"{config.reader.kind}: {exc}", _advice(exc))
    on_it = f"card {uid}" if uid else "no card"
    return ok("reader", f"{_chip(part, config)} answers ({on_it} on it)")


def _advice(exc: Exception) -> str:
    """The drivers' own errors already say what to do; anything else points at the wiring."""
    from hardware.errors import DisplayError, ReaderError
    return "" if isinstance(exc, (DisplayError, ReaderError)) else WIRING


def _chip(part, config: Config) -> str:
    version = getattr(part, "version", None)
    firmware = getattr(part, "firmware", None)
    if version is not None:
        return f"RC522 (version 0x{version:02X})"
    if firmware is not None:
        return f"PN532 (firmware {firmware[1]}.{firmware[2]})"
    return config.reader.kind.upper()


def display_check(config: Config, sim: bool) -> Check:
    from device.ui.render import render
    from device.ui.screen import Screen
    frame = render(Screen("TABLETOP", "", ("doctor",)))
    if sim or config.display.kind == "sim":
        from hardware.sim_display import FrameDisplay
        twin = FrameDisplay()
        twin.show(frame)
        return ok("display", f"simulated display took {twin.count} frame")
    from device.parts import open_panel
    d = config.display
    where = f"I2C {d.i2c_port} at 0x{d.i2c_address:02X}" if d.bus == "i2c" else \
        f"SPI{d.spi_bus} CE{d.spi_device}"
    try:
        panel = open_panel(config)
        panel.show(frame)
        working = panel.ok
        panel.close()
    except Exception as exc:
        return Check("FAIL", "display", f"{d.kind} on {where}: {exc}", _advice(exc))
    if not working:
        return Check("FAIL", "display", f"{d.kind} on {where}: {panel.last_error}", WIRING)
    return ok("display", f"{d.kind} on {where} answers")


# ---- the games and the state dir ---------------------------------------------------------

def game_checks() -> list[Check]:
    """A game plug-in the registry refused (see engine.problems()): the others play without it."""
    return [Check("WARN", "games", problem, "reinstall the package that adds it, or remove it")
            for problem in engine.problems()]


def deck_checks(state_dir: Path, sim: bool) -> list[Check]:
    from device.decks.registry import DeckRegistry
    from device.decks.simulated import SimDecks
    registry = DeckRegistry(state_dir)
    decks = (SimDecks(registry) if sim else registry).decks()
    checks = [Check("FAIL", "decks", problem, "fix or remove that file")
              for problem in registry.problems]
    for spec in engine.all_specs():
        mine = [d for d in decks if d.family == spec.deck]
        complete = [d.name for d in mine if d.complete]
        if complete:
            checks.append(ok("decks", f"{spec.id}: {', '.join(complete)} complete"))
        elif mine:
            short = min(mine, key=lambda d: len(d.missing))
            checks.append(Check("WARN", "decks", f"{spec.id}: deck {short.name} misses "
                                f"{len(short.missing)} cards ({', '.join(short.missing[:3])}...)",
                                f"tabletop deck learn {spec.id} --deck {short.name}"))
        else:
            checks.append(Check("WARN", "decks", f"{spec.id}: no deck",
                                f"tabletop deck learn {spec.id}, or tabletop deck import FILE"))
    return checks


def space_check(state_dir: Path) -> Check:
    existing = next(p for p in (state_dir, *state_dir.parents) if p.exists())
    if not os.access(existing, os.W_OK):
        return Check("FAIL", "state dir", f"{existing} is not writable by {user()}",
                     f"sudo chown -R {user()} {existing}, or give --state-dir")
    free = shutil.disk_usage(existing).free
    detail = f"{state_dir}: {free // MB} MB free" + ("" if existing == state_dir else
                                                      " (created at the first game)")
    if free < SPACE_FAIL:
        return Check("FAIL", "state dir", detail, "free some space: games are saved there")
    if free < SPACE_WARN:
        return Check("WARN", "state dir", detail, "free some space soon")
    return ok("state dir", detail)
