"""One headless Chromium (the system's, driven by Playwright) for all the browser tests a
pytest worker runs: started the first time a test asks for it, closed when the worker ends,
started again after a crash (which fails the test it happens in, not the worker's next ones).
A launch (Playwright's driver and Chromium) costs about two seconds of CPU; a context (the
fresh profile each test gets, in a window of its own) about half a second.

Playwright's sync API marks its event loop as the thread's running loop between its calls,
so asyncio.run() in a later test of the same worker would refuse to start: the loop is marked
only while the browser is in use (`in_use`).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
# Headless Chromium loads the omnibox's popups as pages of their own in a renderer of their own,
# again for each context (a window): half a second of CPU a context, for a popup no test opens.
UNSEEN = ("WebUIOmniboxAimPopup", "WebUIOmniboxPopup")
# The features Playwright turns off (as of 1.65): Chromium reads only the last --disable-features,
# so ours repeats them; a Playwright that turns off more is seen at launch (`_launch`).
PLAYWRIGHTS = ("AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
               "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
               "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
               "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
               "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
BOUND_MS = 60000                 # bounds a failure only: a loaded machine is slow, not wrong

# The page's HTML once document.body's data-version reaches the wanted one (set by the page's
# draw): it waits on the page's own changes, not on a clock.
AT_VERSION = """([least, bound]) => new Promise((done, fail) => {
  const ready = () => Number(document.body.dataset.version || -1) >= least;
  if (ready()) { done(document.documentElement.outerHTML); return; }
  const observer = new MutationObserver(() => {
    if (ready()) { observer.disconnect(); clearTimeout(never); done(document.documentElement.outerHTML); }
  });
  const never = setTimeout(() => {
    observer.disconnect();
    fail(new Error(`the page drew no version ${least} in ${bound} ms: ${document.body.dataset.version}`));
  }, bound);
  observer.observe(document.body, {attributes: true});
})"""

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


def chromium_program() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    real = Path("/usr/lib/chromium/chromium")      # Debian's wrapper script starts this one
    return str(real if real.exists() else found)


def disabled_features(program: str) -> list[list[str]]:
    """Each --disable-features list on the command line of the browser this process started
    (the worker's one: Playwright's list first, then any given after it)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue                            # ended meanwhile
            children.setdefault(parent, []).append(int(entry.name))
    ours, lists = [os.getpid()], []
    while ours:
        pid = ours.pop()
        ours += children.get(pid, [])
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if line[0] == program and not any(arg.startswith("--type=") for arg in line):
            lists += [arg.split("=", 1)[1].split(",") for arg in line
                      if arg.startswith("--disable-features=")]
    return lists


class SharedChromium:
    """The worker's one Chromium, launched by the first `in_use`."""

    def __init__(self) -> None:
        self._driver = None
        self._browser = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _launch(self):
        playwright = pytest.importorskip("playwright.sync_api")
        program = chromium_program()
        manager = playwright.sync_playwright()
        driver = manager.start()
        try:
            # Playwright gives the browser a temporary profile (--user-data-dir) of its own,
            # and each context a fresh one in it
            off = [*PLAYWRIGHTS, *UNSEEN]
            self._browser = driver.chromium.launch(
                executable_path=program, headless=True, args=[*FLAGS, "--disable-features=" + ",".join(off)])
            lists = disabled_features(program)
            theirs = set(lists[0]) - set(off) if lists else set()
            if theirs:                              # a newer Playwright's: kept, at one more launch
                self._browser.close()
                self._browser = driver.chromium.launch(
                    executable_path=program, headless=True,
                    args=[*FLAGS, "--disable-features=" + ",".join([*off, *sorted(theirs)])])
        except BaseException:
            driver.stop()
            raise
        self._driver, self._loop = driver, asyncio.get_running_loop()

    @contextmanager
    def in_use(self) -> Iterator:
        """The browser, with Playwright's loop marked as running while it is used."""
        before = asyncio._get_running_loop()
        try:
            if self._browser is None:
                self._launch()
            else:
                asyncio._set_running_loop(self._loop)
            yield self._browser
        finally:
            # Playwright hears of a crash while its loop runs, as it did during this use
            if self._browser is not None and not self._browser.is_connected():
                self._drop()
            asyncio._set_running_loop(before)

    def _drop(self) -> None:
        """Stop the driver and forget the browser (closed, or gone in a crash); Playwright's
        loop marked as running."""
        with contextlib.suppress(Exception):        # a driver gone with its browser
            self._driver.stop()
        self._browser = None

    def close(self) -> None:
        if self._browser is not None:
            with self.in_use() as browser:
                browser.close()
                self._drop()


class Tab:
    """A page in a context of its own, `size` pixels wide and high, read by scripts run in it:
    what the dashboard's tests ask of a wall screen. `zone` (an IANA name): the page's clock
    reads in it, whatever the machine's; `clock_at` (ISO): the page's Date starts there and
    counts on (its timers still run on the machine's clock)."""

    def __init__(self, chromium: SharedChromium, size: tuple[int, int] = (1200, 1000),
                 zone: str | None = None, clock_at: str | None = None) -> None:
        self._chromium = chromium
        with chromium.in_use() as browser:
            self.context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                               timezone_id=zone)
            if clock_at is not None:
                self.context.add_init_script(CLOCK_AT % json.dumps(clock_at))
            self.context.set_default_timeout(BOUND_MS)
            self.page = self.context.new_page()

    def resize(self, size: tuple[int, int]) -> None:
        with self._chromium.in_use():
            self.page.set_viewport_size({"width": size[0], "height": size[1]})

    def open(self, url: str) -> None:
        with self._chromium.in_use():
            self.page.goto(url)

    def page_at_version(self, least: int) -> str:
        """The page's HTML once it has drawn board version `least` or later."""
        with self._chromium.in_use():
            return self.page.evaluate(AT_VERSION, [least, BOUND_MS])

    def run(self, script: str, *args):
        """What `script` (a function body: `return ...`, its arguments in `arguments`) gives,
        run in the page now."""
        with self._chromium.in_use():
            return self.page.evaluate(f"(args) => (function () {{\n{script}\n}}).apply(null, args)",
                                      list(args))

    def screenshot(self) -> bytes:
        with self._chromium.in_use():
            return self.page.screenshot()

    def close(self) -> None:
        with self._chromium.in_use():
            self.context.close()
