"""The dashboard's server: every table of the café, live, in a browser. Read-only.

It subscribes to the tables' topics on the broker (a persistent session, so the broker
keeps what the tables say while the dashboard is away) and serves one page that follows
the café through server-sent events. The web side is the standard library's threading
HTTP server: a café has a few screens watching, one thread each is plenty, and the
dashboard adds no dependency beyond the fleet's paho-mqtt. It listens on 127.0.0.1
unless told otherwise; on any other address it asks for a token, given only as
`Authorization: Bearer` (a URL's query ends up in logs and browser history).

A thread each is only safe when bounded: a connection that sends nothing, or half a
request, is closed after IDLE_S; beyond MAX_CONNECTIONS at once a client is answered
503 at once, before anything is read; exposed beyond loopback with `names`, a request
for any other Host is refused (a DNS-rebinding page cannot reach the board).

The data comes in the dashboard's language (`language`, or the page's `?lang=`), as words
only (page.py); /words.json gives the page its own words before any data.
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
from .page import FINISHED, labels, language_of, page

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
IDLE_S = 10.0                          # the longest wait for a request, or for a reader to read
MAX_CONNECTIONS = 32                   # a café's screens and scripts, with room to spare
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 20\r\nRetry-After: 5\r\n\r\ntoo many connections\n")
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

    server: DashboardServer
    timeout = IDLE_S                   # socket timeout: idle and partial requests end here

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        self.language = language_of(parse_qs(url.query).get("lang", [None])[0],
                                    self.server.language)
        if not self.server.host_allowed(self.headers.get("Host", "")):
            self._reply(421, "text/plain", b"unknown host name\n")
        elif url.path in STATIC:
            name, kind = STATIC[url.path]
            asset = resources.files(__package__).joinpath("assets", name)
            self._reply(200, kind, asset.read_bytes())
        elif url.path == "/words.json":            # the page's own words: no data in them
            self._reply(200, "application/json", json.dumps(
                {"language": self.language, "words": labels(self.language)}).encode())
        elif url.path not in ("/state.json", "/events"):
            self._reply(404, "text/plain", b"not found\n")
        elif not self._allowed():
            self._reply(403, "text/plain", b"token needed: Authorization: Bearer TOKEN "
                        b"(the page: open it as /#token=TOKEN)\n")
        elif url.path == "/state.json":
            self._reply(200, "application/json", json.dumps(self._page()).encode())
        else:
            self._stream()

    def _page(self) -> dict:
        return page(self.server.board.view(), self.language, self.server.finished)

    def _allowed(self) -> bool:
        token = self.server.token
        scheme, _, given = self.headers.get("Authorization", "").partition(" ")
        return token is None or (scheme == "Bearer" and
                                 hmac.compare_digest(token.encode(), given.strip().encode()))

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
                    view = self._page()
                    self.wfile.write(b"data: " + json.dumps(view).encode() + b"\n\n")
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                changed = board.wait(view["version"], KEEPALIVE_S)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass                                      # the browser went away, or stopped reading

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)


class DashboardServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, board: Board, host: str, port: int, token: str | None,
                 names: tuple[str, ...] = (), language: str = "en",
                 finished: int = FINISHED) -> None:
        if not is_loopback(host) and not token:
            raise ValueError(f"{host} is not a loopback address: give a token "
                             "(--token or fleet.dashboard_token)")
        self.board, self.token = board, token
        self.language, self.finished = language_of(language, "en"), finished
        self.names = {name.lower() for name in names}
        self.exposed = not is_loopback(host)
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        super().__init__((host, port), Handler)

    def host_allowed(self, host_header: str) -> bool:
        """On loopback any Host; exposed with names configured, only those names."""
        if not (self.exposed and self.names):
            return True
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        return name.strip("[]").lower() in self.names

    def process_request(self, request, client_address) -> None:
        """One thread per connection, up to MAX_CONNECTIONS; beyond, a 503 and close."""
        if not self._slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def start(self) -> DashboardServer:
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
                on_up=lambda _link: board.broker_link(True),
                on_down=lambda: board.broker_link(False), clean=False).start()
