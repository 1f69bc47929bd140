"""A staffer's browser, as far as the back office's HTTP contract goes: a cookie jar of one
cookie, the CSRF token the login gave, JSON in and out (http.client on a real socket)."""
from __future__ import annotations

import datetime
import http.client
import json
from pathlib import Path

from device.fleet.backoffice.api import Api
from device.fleet.backoffice.history import History
from device.fleet.backoffice.office import COOKIE, BackOffice
from device.fleet.backoffice.password import store
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board

PASSWORD = "tidepool-42"
CHEAP = 2 ** 10                 # the tests' password hashes: each login a millisecond, not 50


class Clock:
    """The sessions' and tries' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def serve(state_dir: Path, password: str | None = PASSWORD, history: History | None = None,
          today: datetime.date = datetime.date(2030, 1, 15)) -> tuple[DashboardServer, Clock, History]:
    """A dashboard with its back office on loopback, over `state_dir`."""
    if password is not None:
        store(state_dir, password, n=CHEAP)
    history = history if history is not None else History(None)
    clock = Clock()
    board = Board(counted=history)
    office = BackOffice(state_dir, clock=clock, api=lambda o: Api(o, history, lambda: today, board=board).routes())
    server = DashboardServer(board, "127.0.0.1", 0, token=None, backoffice=office).start()
    return server, clock, history


class Staffer:
    def __init__(self, server: DashboardServer, address: str = "127.0.0.1") -> None:
        self.port, self.source = server.server_address[1], (address, 0)   # the address it comes from
        self.cookie: str | None = None
        self.csrf: str | None = None

    def ask(self, method: str, path: str, body: object = None, csrf: str | None | bool = True,
            raw: bytes | None = None, headers: dict | None = None) -> tuple[int, object, dict]:
        """The status, the JSON answer (or text), and the headers; the cookie kept as a browser
        keeps it."""
        sent = {**(headers or {})}
        if self.cookie:
            sent["Cookie"] = f"{COOKIE}={self.cookie}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        if csrf is True and self.csrf:
            sent["X-CSRF-Token"] = self.csrf
        elif isinstance(csrf, str):
            sent["X-CSRF-Token"] = csrf
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10,
                                                source_address=self.source)
        try:
            connection.request(method, path, body=data, headers=sent)
            reply = connection.getresponse()
            got, given = reply.read(), dict(reply.getheaders())
            for name, value in reply.getheaders():
                if name.lower() == "set-cookie" and value.startswith(COOKIE + "="):
                    self.cookie = value.split(";")[0].split("=", 1)[1] or None
                    if "max-age=0" in value.lower() or "expires=thu, 01 jan 1970" in value.lower():
                        self.cookie = None
        finally:
            connection.close()
        kind = given.get("content-type", "")
        return reply.status, json.loads(got) if kind.startswith("application/json") else got.decode(), given

    def get(self, path: str) -> tuple[int, object]:
        status, body, _ = self.ask("GET", path)
        return status, body

    def post(self, path: str, body: object, **options) -> tuple[int, object]:
        status, answer, _ = self.ask("POST", path, body, **options)
        return status, answer

    def login(self, password: str = PASSWORD) -> int:
        status, body = self.post("/admin/api/login", {"password": password}, csrf=False)
        if status == 200:
            self.csrf = body["csrf"]
        return status


def sign_in(page, url: str) -> None:
    """A staffer opens the back office at `url` in Chromium (Playwright's page) and signs in:
    back once the page has loaded everything it shows."""
    page.goto(url + "admin/")
    page.fill("#password", PASSWORD)
    page.click("#login-form button")
    page.wait_for_selector("body[data-ready='1']")
