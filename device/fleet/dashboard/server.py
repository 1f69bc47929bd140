"""The dashboard's server: every table of the café, live, in a browser. Read-only.

It subscribes to the tables' topics on the broker (a persistent session, so the broker
keeps what the tables say while the dashboard is away) and serves one page that follows
the café through server-sent events. The web side is the standard library's threading
HTTP server: a café has a few screens watching, one thread each is plenty, and the
dashboard adds no dependency beyond the fleet's paho-mqtt. It listens on 127.0.0.1
unless told otherwise; on any other address it asks for a token.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from device.fleet.link import Link
from device.fleet.topics import TABLE_FILTERS

from .board import Board

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Handler(BaseHTTPRequestHandler):
    """GET only: the page (no data in it), /state.json and /events (the data, token-guarded)."""

    server: "DashboardServer"

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path in STATIC:
            name, kind = STATIC[url.path]
            page = resources.files(__package__).joinpath("assets", name)
            self._reply(200, kind, page.read_bytes())
        elif url.path not in ("/state.json", "/events"):
            self._reply(404, "text/plain", b"not found\n")
        elif not self._allowed(parse_qs(url.query).get("token", [""])[0]):
            self._reply(403, "text/plain", b"token needed: open the page with ?token=...\n")
        elif url.path == "/state.json":
            self._reply(200, "application/json", json.dumps(self.server.board.view()).encode())
        else:
            self._stream()

    def _allowed(self, given: str) -> bool:
        token = self.server.token
        bearer = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        return token is None or any(hmac.compare_digest(token.encode(), t.encode())
                                    for t in (given, bearer) if t)

    def _reply(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _stream(self) -> None:
        """Server-sent events: the whole board at first and after each change."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        board, changed = self.server.board, True
        try:
            while not board.closed:
                if changed:
                    view = board.view()
                    self.wfile.write(b"data: " + json.dumps(view).encode() + b"\n\n")
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                changed = board.wait(view["version"], KEEPALIVE_S)
        except (BrokenPipeError, ConnectionResetError):
            pass                                      # the browser went away

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)


class DashboardServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, board: Board, host: str, port: int, token: str | None) -> None:
        if not is_loopback(host) and not token:
            raise ValueError(f"{host} is not a loopback address: give a token "
                             "(--token or fleet.dashboard_token)")
        self.board, self.token = board, token
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def start(self) -> "DashboardServer":
        threading.Thread(target=self.serve_forever, args=(0.1,), name="dashboard",
                         daemon=True).start()
        return self

    def close(self) -> None:
        self.board.close()
        self.shutdown()
        self.server_close()


def subscribe(settings, board: Board, client_id: str) -> Link:
    """The board's feed: the tables' topics, in a session the broker keeps while we are away."""
    return Link(settings, client_id, subscriptions=TABLE_FILTERS, on_message=board.receive,
                clean=False).start()
