"""`doctor` with the service running: a button its log says is stuck, and not released since."""
from __future__ import annotations

import subprocess

import pytest

from device.cli import doctor_checks

RUN = "5b1c"


def journal(monkeypatch, lines, run_id=RUN):
    asked = []

    def run(command, **kwargs):
        asked.append(command)
        out = run_id + "\n" if command[0] == "systemctl" else "".join(f"{line}\n" for line in lines)
        return subprocess.CompletedProcess(command, 0, out, "")
    monkeypatch.setattr(doctor_checks.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(doctor_checks.subprocess, "run", run)
    return asked


HELD = "buttons: {} held down for 30 s: stuck? It repeats no more until released"
FREED = "buttons: {} released: it works again"


@pytest.mark.parametrize("lines, stuck", [
    ([], None),
    ([HELD.format("UP")], "UP"),
    ([HELD.format("UP"), FREED.format("UP")], None),
    ([HELD.format("UP"), FREED.format("UP"), HELD.format("DOWN"), HELD.format("UP")], "UP, DOWN"),
    (["buttons: SELECT (GPIO 13) is down at start: stuck, or wired to ground"], None),
])
def test_a_button_stuck_in_the_running_service_is_a_warning(monkeypatch, lines, stuck):
    asked = journal(monkeypatch, lines)
    found = doctor_checks.stuck_button_checks()
    if stuck is None:
        assert found == []
    else:
        check, = found
        assert check.status == "WARN" and check.detail.startswith(f"{stuck} held down past 30 s")
    assert asked[-1][1] == f"_SYSTEMD_INVOCATION_ID={RUN}"        # this run of the service only


def test_no_service_run_no_warning(monkeypatch):
    journal(monkeypatch, [HELD.format("UP")], run_id="")
    assert doctor_checks.stuck_button_checks() == []
