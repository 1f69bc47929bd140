"""The table's page as people use it: headless Chromium (the system's, driven by Playwright)
in a phone's viewport beside `tabletop run --sim`. The phone joins by the QR code read off
the OLED frame, three names are typed on the page into the roster, the seats are named with
the page's buttons, the first turns are played with taps on the simulator and the page's
buttons, an instruction to a 10-character name is read whole on the page, and a second phone
joins.

Nothing waits on a clock: the simulator acknowledges each line it handled (TABLETOP_SIM_ACK)
and the page marks each view it drew on its body (data-version), which Playwright waits for.
"""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from device.players.roster import Roster
from tests.device.test_web_server import read_qr

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
LONG_NAME = "Maximilian"                 # 10 characters: an instruction to it wraps on the OLED
SAID_S = 60.0                            # a simulator silent this long has hung: not a wait


class Sim:
    """`tabletop run --sim` with its page on a free port of 127.0.0.1, typed to line by line."""

    def __init__(self, state_dir: Path) -> None:
        config = state_dir / "web.toml"
        config.write_text('[web]\nhost = "127.0.0.1"\nport = 0\n')
        self.frames = state_dir / "frames"
        env = {**os.environ, "TABLETOP_SIM_ACK": "1", "LC_ALL": "C.UTF-8"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "run", "--sim", "--state-dir", str(state_dir),
             "--config", str(config), "--frames", str(self.frames)],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL, text=True, bufsize=1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.typed = 0
        self.presses = 0                           # presses of the table's own buttons
        self.url = self._said("the table's page: ").strip()

    def _said(self, marker: str) -> str:
        """The rest of the simulator's next line holding the marker. A simulator that hangs
        fails the test rather than hanging CI: a thread reads its stderr, and each line is
        waited for at most SAID_S (a bound for a hang, not a wait: each comes in ms)."""
        while True:
            try:
                line = self._lines.get(timeout=SAID_S)
            except queue.Empty:
                self.proc.kill()
                raise AssertionError(f"the simulator said nothing in {SAID_S} s, "
                                     f"waiting for {marker!r}") from None
            if line is None:
                raise AssertionError(f"the simulator ended before saying {marker!r}")
            if marker in line:
                return line.split(marker, 1)[1]

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._lines.put(line)
        self._lines.put(None)

    def type(self, *lines: str) -> None:
        """Type the lines and read until the simulator says the last one is handled."""
        assert self.proc.stdin is not None
        for line in lines:
            self.presses += line.split()[0] in ("press", "hold")
            self.proc.stdin.write(line + "\n")
            self.typed += 1
        self.proc.stdin.flush()
        self.proc.stdin.write("wait 0\n")          # its ack says the lines before are done
        self.typed += 1
        self.proc.stdin.flush()
        while int(self._said("ack ").strip()) < self.typed:
            pass

    def last_frame(self):
        from PIL import Image
        return Image.open(sorted(self.frames.glob("*.png"))[-1])

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(60)


def phone(browser, url: str):
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(url)
    page.wait_for_selector("#table:not([hidden])")
    return page


def drawn(page, version: int) -> None:
    """Wait until the page drew a view at least this new (the stream's or a press's)."""
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def press(page, button: str) -> None:
    """A tap on the page's button, and the view it answers drawn: that of the table's frame
    after the press (the answer comes before the page has drawn it)."""
    with page.expect_response("**/api/input") as reply:
        page.click(f'#buttons button[data-button="{button}"]')
    assert reply.value.status == 200, reply.value.text()
    drawn(page, reply.value.json()["screen"]["version"])


def caught_up(page) -> None:
    """Wait until the page drew the table's frame now (one made by lines typed to the
    simulator reaches the page by its stream, in its own time)."""
    drawn(page, sim_screen(page)["version"])


def snap(page, name: str, full: bool = False) -> None:
    """With TABLETOP_WEB_SHOTS=DIR, the page as the phone shows it (docs/web.md's pictures);
    `full`: the whole page, scrolled."""
    folder = os.environ.get("TABLETOP_WEB_SHOTS")
    if folder:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(folder) / name), full_page=full)


def add_name(page, name: str) -> None:
    """A name typed into the roster, taken; then the page empties the field (after the
    answer came: a name typed before that would be emptied with it)."""
    page.fill("#name", name)
    with page.expect_response("**/api/players") as added:
        page.click("#name-form button")
    assert added.value.status == 200, added.value.text()
    page.wait_for_function("() => document.getElementById('name').value === ''")


def texts(page) -> str:
    return page.inner_text("#table")


def test_a_phone_joins_by_the_qr_code_sets_up_and_plays_beside_the_table(tmp_path, browser):
    sim = Sim(tmp_path)
    try:
        [address] = read_qr(sim.last_frame())         # what a phone's camera reads off the OLED
        assert address.startswith(sim.url + "#code=")
        first = phone(browser, address)
        assert first.url == sim.url                    # the code left the address bar
        assert "Palourde" in texts(first)
        for name in ("Cy", "Ann", LONG_NAME):         # typed; the last added is offered first
            add_name(first, name)
        first.fill("#name", "two words")             # refused as `players add` refuses it
        with first.expect_response("**/api/players") as refused:
            first.click("#name-form button")
        assert refused.value.status == 400
        first.wait_for_function("() => document.getElementById('name-error').textContent !== ''")
        assert first.inner_text("#names").split() == [LONG_NAME, "Ann", "Cy"]
        assert [p.name for p in Roster(tmp_path).players()] == [LONG_NAME, "Ann", "Cy"]
        snap(first, "web-phone-join.png")
        # Palourde; its house rules as they are; 3 fishermen (the page's buttons)
        for button in ("select", "select", "down", "select"):
            press(first, button)
        assert "Basket 1/3: who?" in texts(first)
        # each Basket's holder: the first name offered, three times; the youngest: the first;
        # the deck set aside and shuffled
        for _ in range(5):
            press(first, "select")
        assert first.inner_text("#prompt").replace("\n", " ") == f"{LONG_NAME}: flip 2 cards, tap each"
        snap(first, "web-phone-turn.png")
        # the first turns: flips tapped on the reader, the page's SELECT past the messages
        sim.type("tap clam#1", "tap clam#2")
        caught_up(first)
        said = first.inner_text("#texts")           # the instruction, whole, its name uncut
        assert f"{LONG_NAME} +2 clams" in said and "Both to your" in said
        snap(first, "web-phone-instruction.png")
        press(first, "select")
        assert first.inner_text("#prompt").startswith("Ann: flip 2 cards")
        last = first.inner_text("#last")            # what UP reads again, in one piece
        assert f"{LONG_NAME} +2 clams -> 2 Both to your Basket Ann plays next" in last
        assert first.inner_text("#players").split() == [LONG_NAME, "2", "Ann", "0", "Cy", "0"]
        # a second phone joins the same game with the code typed: it sees the same screen
        second = browser.new_context(viewport=PHONE).new_page()
        second.goto(sim.url)
        second.wait_for_selector("#join:not([hidden])")
        code = address.split("#code=", 1)[1]
        second.fill("#code", code)
        second.click("#join-form button")
        second.wait_for_selector("#table:not([hidden])")
        caught_up(second)
        assert second.inner_text("#players") == first.inner_text("#players")
    finally:
        assert sim.close() == 0


def told(page, action) -> dict:
    """A setup change made on the page, and the table's answer to its setup line."""
    with page.expect_response(lambda r: r.url.endswith("/api/setup") and r.request.method == "POST") \
            as reply:
        action()
    assert reply.value.status == 200, reply.value.text()
    return reply.value.json()


def test_a_phone_sets_up_a_game_with_typed_names_and_the_first_card_is_taken(tmp_path, browser):
    """Tribord from the phone alone: three names typed, a seat moved up, one dragged, a house rule changed,
    who starts picked, Start; the OLED follows each step, and the first card tapped on the
    reader is the game's first. No press on the table."""
    sim = Sim(tmp_path)
    try:
        [address] = read_qr(sim.last_frame())
        page = phone(browser, address)
        for name in ("Cy", "Ann", LONG_NAME):            # typed: to the roster and the seats
            add_name(page, name)
        page.wait_for_function("() => document.querySelectorAll('#seats li').length === 3")
        game = page.locator('#games li[data-game="tribord"]')
        assert "2 to 7 players" in game.inner_text() and "richest wins" in game.inner_text()
        said = told(page, game.click)
        assert said["setup"]["game"] == "tribord"
        page.wait_for_function("() => document.getElementById('seats').innerText.includes('Cy')")
        page.wait_for_selector("#first-part:not([hidden])")    # the typed names, seated
        assert sim_screen(page)["header"].startswith("A TRIBORD")
        said = told(page, lambda: page.click(f'[aria-label="{LONG_NAME} up"]'))
        assert said["setup"]["seated"] == ["Cy", LONG_NAME, "Ann"]
        assert "Who" in " ".join(said["screen"]["rows"])  # the OLED asks who starts
        seats = page.locator("#seats .name")
        said = told(page, lambda: seats.nth(2).drag_to(seats.nth(0)))   # Ann dragged to the top
        assert said["setup"]["seated"] == ["Ann", "Cy", LONG_NAME]
        rule = page.locator('[data-rule="initial_pair"]')
        assert "dealt again" in page.locator("#rules li", has=rule).inner_text()   # rules.md's words
        said = told(page, lambda: rule.select_option("redeal"))
        assert said["screen"]["highlight"] is not None     # the OLED on that house rule
        told(page, lambda: page.select_option("#first", "Ann"))
        snap(page, "web-phone-setup.png", full=True)
        said = told(page, lambda: page.click("#start"))
        assert said["screen"]["game"] is None and said["setup"]["seated"] == ["Ann", "Cy", LONG_NAME]
        sim.type("tap 4#1")                               # the first card, on the reader
        page.wait_for_selector("#setup", state="hidden")
        view = sim_screen(page)
        assert view["game"] == "tribord"
        assert [p["name"] for p in view["players"]] == ["Ann", "Cy", LONG_NAME]
        assert sim.presses == 0
    finally:
        assert sim.close() == 0


def sim_screen(page) -> dict:
    """The table's view now, as the page's own session reads it."""
    return page.evaluate("fetch('/api/screen').then(r => r.json())")


def test_the_page_speaks_the_tables_language_and_follows_its_change(tmp_path, browser):
    """The table set to French from its menu: the page joined by the QR code is in French, its
    games pitched in French, its seat buttons named in French; the table back to English, the
    open page reloads itself in English, its session kept."""
    sim = Sim(tmp_path)
    try:
        sim.type("press up", "press select")             # the game select's last line: Langue
        [address] = read_qr(sim.last_frame())
        page = phone(browser, address)
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert "À l'écran" in texts(page) and "Rejoindre" not in texts(page)
        game = page.locator('#games li[data-game="tribord"]')
        assert "2 à 7 joueurs" in game.inner_text() and "le plus riche gagne" in game.inner_text()
        add_name(page, "Cy")
        page.wait_for_selector('[aria-label="Cy monte"]')
        snap(page, "web-phone-fr.png")
        sim.type("press select")                          # back to English, on the table
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.wait_for_selector("#table:not([hidden])")
        assert "On the screen" in texts(page)
    finally:
        assert sim.close() == 0
