"""The fleet's drop-in against the shipped unit: the network MQTT needs, and no more."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tabletop.service"
DROPIN = ROOT / "systemd" / "tabletop-fleet.conf"
INSTALL = ROOT / "systemd" / "install.sh"
LISTS = {"RestrictAddressFamilies", "IPAddressDeny", "IPAddressAllow", "After", "Wants"}


def merged(*files: Path) -> dict[str, list[str]]:
    """The unit's settings as systemd reads a unit and then its drop-ins: a list setting
    grows, an empty assignment clears it; any other setting takes the last value."""
    found: dict[str, list[str]] = {}
    for path in files:
        for line in path.read_text().splitlines():
            if "=" not in line or line.lstrip().startswith(("#", ";", "[")):
                continue
            key, _, value = (part.strip() for part in line.partition("="))
            if not value:
                found[key] = []
            elif key in LISTS:
                found.setdefault(key, []).extend(value.split())
            else:
                found[key] = [value]
    return found


def test_the_unit_alone_has_no_network_and_the_drop_in_opens_what_mqtt_needs():
    alone, fleet = merged(UNIT), merged(UNIT, DROPIN)
    assert alone["PrivateNetwork"] == ["yes"] and alone["RestrictAddressFamilies"] == ["AF_UNIX"]
    assert fleet["PrivateNetwork"] == ["no"]
    assert sorted(fleet["RestrictAddressFamilies"]) == ["AF_INET", "AF_INET6", "AF_UNIX"]
    assert fleet["IPAddressDeny"] == []
    assert "network-online.target" in fleet["After"] and "network-online.target" in fleet["Wants"]
    untouched = {k: v for k, v in alone.items() if k not in merged(DROPIN)}
    assert all(fleet[k] == v for k, v in untouched.items())     # every other hardening stays


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not "
                    "installed: the drop-in's check is skipped")
def test_systemd_verifies_the_unit_with_the_drop_in(tmp_path):
    text = UNIT.read_text().replace("ExecStart=/opt/tabletop/bin/tabletop", "ExecStart=/bin/true")
    (tmp_path / "tabletop.service").write_text(text)
    (tmp_path / "tabletop.service.d").mkdir()
    shutil.copy(DROPIN, tmp_path / "tabletop.service.d" / "fleet.conf")
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "tabletop.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not "
                    "installed: the dashboard unit's check is skipped")
def test_systemd_verifies_the_dashboard_unit(tmp_path):
    unit = ROOT / "systemd" / "tabletop-dashboard.service"
    settings = merged(unit)
    assert settings["ExecStart"][0].split()[1] == "dashboard"
    assert "network-online.target" in settings["After"] and settings["User"] == ["tabletop"]
    text = unit.read_text().replace("ExecStart=/opt/tabletop/bin/tabletop", "ExecStart=/bin/true")
    (tmp_path / "tabletop-dashboard.service").write_text(text)
    done = subprocess.run(["systemd-analyze", "verify",
                           str(tmp_path / "tabletop-dashboard.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
