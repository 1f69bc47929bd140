"""Talking to systemd: READY once the first frame is up, WATCHDOG pings from the main loop.

The notification socket is a datagram socket named in $NOTIFY_SOCKET; without it
(a terminal, a test) every call does nothing. Pings come from the loop itself,
so a hung loop stops them and systemd restarts the service (WatchdogSec=).
"""
from __future__ import annotations

import os
import socket
import time

KEPT = 16                 # notifications remembered in `sent`


class Service:
    def __init__(self, environ=os.environ, clock=time.monotonic) -> None:
        self.address = environ.get("NOTIFY_SOCKET")
        watchdog_us = environ.get("WATCHDOG_USEC")
        # ping at half the watchdog period, as sd_watchdog_enabled(3) advises
        self.interval = int(watchdog_us) / 2e6 if watchdog_us and watchdog_us.isdigit() else None
        self.clock = clock
        self._last_ping = float("-inf")
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        if not self.address:
            return
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(message.encode(), address)
            except OSError:
                return
        # the last few, for tests and a look from a debugger: a ping every few seconds for
        # months must not pile up
        self.sent = [*self.sent[-(KEPT - 1):], message]

    def ready(self) -> None:
        self.notify("READY=1")

    def alive(self) -> None:
        """Called once per loop turn; pings when half the watchdog period has passed."""
        if self.interval is None:
            return
        now = self.clock()
        if now - self._last_ping >= self.interval:
            self._last_ping = now
            self.notify("WATCHDOG=1")

    def stopping(self) -> None:
        self.notify("STOPPING=1")
