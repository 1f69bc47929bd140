"""Headless Chromium through chromedriver's WebDriver API (plain HTTP, no client library).

A page that keeps a server-sent events stream open never lets Chromium's virtual time
run out, so `--dump-dom` would wait for ever: WebDriver instead runs a script in the
page that answers as soon as the page has drawn what the test waits for.
"""
from __future__ import annotations

import base64
import json
import os
import re
import select
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.device.mosquitto import ends_with_us

START_SECONDS = 60.0           # bounds a failure only: a loaded machine is slow, not wrong
STARTED = re.compile(rb"started successfully on port (\d+)")
TAKEN = re.compile(rb"port not available")
PORT_TRIES = 5
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]

# Resolves once document.body's data-version reaches the wanted one (set by the page's draw).
WAIT_FOR_VERSION = """
const [least, done] = arguments;
const ready = () => Number(document.body.dataset.version || -1) >= least;
if (ready()) { done(document.documentElement.outerHTML); return; }
new MutationObserver((_, observer) => {
  if (ready()) { observer.disconnect(); done(document.documentElement.outerHTML); }
}).observe(document.body, {attributes: true});
"""


# A page's Date, started at a given time: `new Date()` and `Date.now()` count on from it.
CLOCK_AT = """
(() => {
  const RealDate = Date, start = RealDate.parse(%s), began = performance.now();
  const now = () => start + (performance.now() - began);
  class ClockDate extends RealDate {
    constructor(...args) { super(...(args.length ? args : [now()])); }
    static now() { return Math.floor(now()); }
  }
  globalThis.Date = ClockDate;
})();
"""


def need_chromium() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.skip("Chromium and chromedriver are not installed (Debian: apt-get install "
                    "chromium chromium-driver); the dashboard page test needs them")
    return browser, driver


class Chromium:
    def __init__(self, folder: Path, size: tuple[int, int] = (1200, 1000)) -> None:
        browser, driver = need_chromium()
        self.base = f"http://127.0.0.1:{self._start_driver(driver)}"
        options = {"binary": browser, "args": FLAGS + [f"--user-data-dir={folder}",
                                                       f"--window-size={size[0]},{size[1]}"]}
        reply = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "goog:chromeOptions": options, "timeouts": {"script": 60000, "pageLoad": 60000}}}})
        self.session = f"/session/{reply['sessionId']}"
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        """The page gets exactly `size` (the window's size includes the browser's own bars)."""
        self._call("POST", f"{self.session}/goog/cdp/execute", {
            "cmd": "Emulation.setDeviceMetricsOverride",
            "params": {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False}})

    def _start_driver(self, driver: str) -> int:
        """Port 0: the driver takes a port the system gives it and says which (no other process
        can take it between a probe and the driver's bind). It takes that port on IPv6, then the
        same number on IPv4, and exits when another process has that one ("IPv4 port not
        available"): a new port, then, at most PORT_TRIES times."""
        for _ in range(PORT_TRIES):
            self.driver = subprocess.Popen(ends_with_us([driver, "--port=0"]), stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, bufsize=0)
            port, said = self._wait_for_driver()
            if port is not None:
                return port
            if not TAKEN.search(said):
                break
        raise RuntimeError(f"chromedriver did not start: {said.decode(errors='replace')}")

    def _wait_for_driver(self) -> tuple[int | None, bytes]:
        """The port chromedriver says it listens on once it says so, and what it said."""
        out, deadline = b"", time.monotonic() + START_SECONDS
        while (said := STARTED.search(out)) is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.driver.stdout], [], [], deadline - time.monotonic())
            chunk = os.read(self.driver.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                break
            out += chunk
        if said is None:
            self.driver.kill()
            self.driver.wait()
            return None, out
        return int(said[1]), out

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=90) as reply:
            return json.loads(reply.read())["value"]

    def timezone(self, zone: str) -> None:
        """The page's clock reads in `zone` (an IANA name), whatever the machine's."""
        self._call("POST", f"{self.session}/goog/cdp/execute", {
            "cmd": "Emulation.setTimezoneOverride", "params": {"timezoneId": zone}})

    def clock_at(self, iso: str) -> None:
        """Pages opened from now on read the time as `iso` when they start, going on from there
        (Date and Date.now only: the page's timers still run on the machine's clock)."""
        self._call("POST", f"{self.session}/goog/cdp/execute", {
            "cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": CLOCK_AT % json.dumps(iso)}})

    def open(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})

    def page_at_version(self, least: int) -> str:
        """The page's HTML once it has drawn board version `least` or later."""
        return self._call("POST", f"{self.session}/execute/async",
                          {"script": WAIT_FOR_VERSION, "args": [least]})

    def run(self, script: str, *args):
        """What `script` (a function body: `return ...`) gives, run in the page now."""
        return self._call("POST", f"{self.session}/execute/sync", {"script": script, "args": list(args)})

    def screenshot(self) -> bytes:
        return base64.b64decode(self._call("GET", f"{self.session}/screenshot"))

    def close(self) -> None:
        try:
            self._call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=START_SECONDS)
