"""What the staff's admin menu asks of the machine: restart the service, power off.

On the Pi both go through systemctl, which asks systemd and logind over D-Bus;
the polkit rule that `systemd/install.sh` writes lets the `tabletop` user do
exactly these two things, so the service itself needs no privileges (and no
sudo). The simulator and the tests get a `RecordedSystem` instead, which only
writes the request down. Each action returns None once asked, or why it failed.
"""
from __future__ import annotations

import logging
import subprocess
from collections.abc import Callable

log = logging.getLogger(__name__)

UNIT = "tabletop.service"
COMMANDS = {
    # --no-block: systemd stops this very process to restart it; waiting would be cut short
    "restart": ("systemctl", "--no-block", "restart", UNIT),
    "poweroff": ("systemctl", "poweroff"),
}


class Machine:
    """restart() and poweroff(): None once asked, or why it could not be."""

    def restart(self) -> str | None:
        return self.ask("restart")

    def poweroff(self) -> str | None:
        return self.ask("poweroff")

    def ask(self, action: str) -> str | None:
        raise NotImplementedError


class Systemctl(Machine):
    def __init__(self, run: Callable = subprocess.run) -> None:
        self._run = run

    def ask(self, action: str) -> str | None:
        command = COMMANDS[action]
        log.info("admin: %s", " ".join(command))
        try:
            done = self._run(command, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            return str(exc)
        if done.returncode != 0:
            said = (done.stderr or done.stdout or "").strip().splitlines()
            return said[-1] if said else f"exit status {done.returncode}"
        return None


class RecordedSystem(Machine):
    """The simulator's machine: requests are logged and kept in `requests`."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    def ask(self, action: str) -> str | None:
        log.info("admin: %s requested (simulated: nothing happens)", action)
        self.requests.append(action)
        return None
