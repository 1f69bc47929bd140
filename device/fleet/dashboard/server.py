"""The dashboard's server: every table of the café, live, in a browser. Read-only.

It subscribes to the tables' topics on the broker (a persistent session, so the broker
keeps what the tables say while the dashboard is away) and serves one page that follows
the café through server-sent events. The web side is the standard library's HTTP server
with MAX_CONNECTIONS threads: a café has a few screens watching, a thread each is plenty,
and the dashboard adds no dependency beyond the fleet's paho-mqtt. It listens on 127.0.0.1
unless told otherwise; on any other address it asks for a token, given only as
`Authorization: Bearer` (a URL's query ends up in logs and browser history).

A thread each is only safe when bounded: a connection that sends nothing is closed after
IDLE_S, and one whose request line and headers are not all in within HEADER_S is closed
however often it trickles a byte; with every slot taken, a new client takes the slot of
the oldest one still sending its headers (so slow clients cannot hold them all from real
requests), and only when every slot serves a request is it answered 503, before
anything is read. Exposed beyond loopback with `names`, a request for any other Host is
refused (a DNS-rebinding page cannot reach the board).

Readers cost the same however many they are: the page is made and serialized once per
board version and language (Snapshots), every reader of /state.json and /events gets
those bytes, and a live reader gets at most one board per COALESCE_S, the newest, however
fast the tables talk. A reader that does not take what it is sent within IDLE_S is
dropped; a client that goes away is one debug line, never a traceback.

The data comes in the dashboard's language (`language`, or the page's `?lang=`), as words
only (page.py); /words.json gives the page its own words before any data.
"""
from __future__ import annotations

import hmac
import io
import ipaddress
import json
import logging
import queue
import selectors
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from device.fleet.link import Link
from device.fleet.topics import SHARED_TABLES, TABLE_FILTERS, table_of

from .board import Board
from .page import FINISHED, labels, language_of, page

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
IDLE_S = 10.0                          # the longest wait for a request, or for a reader to read
HEADER_S = 10.0                        # the longest a request line and its headers may take
COALESCE_S = 0.5                       # a live reader gets at most two boards a second
FRESH_S = 1.0                          # the oldest page served for an unchanged board
EVICT_S = 5.0                          # the longest wait for an evicted slow client's slot
MAX_CONNECTIONS = 32                   # a café's screens and scripts, with room to spare
MAX_STREAMS = 32                       # live readers of /events, on slots of their own
SEND_BUFFER = 256 * 1024               # the kernel's buffer for a reader that stopped reading
TABLE_MESSAGE_MAX = 64 * 1024          # a table's state is a few kB: beyond, a hostile one
GONE = (ConnectionError, TimeoutError)  # reset, broken pipe, a reader that stopped reading
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


class HeadReader(io.RawIOBase):
    """The client's socket, read under one deadline for the request line and headers: a
    client trickling a byte every few seconds resets no timer. `until` None: only IDLE."""

    def __init__(self, sock: socket.socket, idle: float, until: float | None) -> None:
        self.sock, self.idle, self.until = sock, idle, until

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        timeout = self.idle
        if self.until is not None:
            timeout = min(timeout, self.until - time.monotonic())
            if timeout <= 0:
                raise TimeoutError("the request's headers took too long")
        self.sock.settimeout(timeout)
        return self.sock.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    """GET only: the page (no data in it), /state.json and /events (the data, token-guarded)."""

    server: DashboardServer
    timeout = IDLE_S                   # socket timeout: idle and partial requests end here

    def setup(self) -> None:
        super().setup()
        self.rfile.close()             # the socket's own reader, replaced by one with a deadline
        self.head = HeadReader(self.connection, self.timeout, time.monotonic() + HEADER_S)
        self.rfile = io.BufferedReader(self.head)

    def parse_request(self) -> bool:
        """The headers are in: the deadline ends, and the slot is this request's."""
        parsed = super().parse_request()
        self.server.heading(self.connection, False)
        self.head.until = None
        self.connection.settimeout(self.timeout)
        return parsed

    def finish(self) -> None:
        self.server.heading(self.connection, False)
        try:
            super().finish()
        except GONE:
            pass                       # the last bytes had nowhere to go: the client left

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
            self._reply(200, "application/json", self.server.snapshots.get(self.language).body)
        else:
            self._stream()

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
        """Server-sent events: the whole board at first and after each change. A stream
        leaves the request slots for one of MAX_STREAMS of its own, and frees it as soon as
        its reader closes (the server watches the socket), not at the next keepalive."""
        gone = self.server.streaming(self.connection)
        if gone is None:
            self.server.turned_away()
            self.connection.sendall(BUSY)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        # the kernel keeps at most this much for a reader that stopped reading; past it, a
        # send waits IDLE_S at most and the reader is dropped
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        board, sent, sent_at = self.server.board, None, 0.0
        try:
            while not board.closed and not gone.is_set():
                snapshot = self.server.snapshots.get(self.language)
                if snapshot.version != sent:
                    self.wfile.write(snapshot.event)
                    sent, sent_at = snapshot.version, time.monotonic()
                else:
                    self.wfile.write(b": still here\n\n")
                if board.wait(sent, KEEPALIVE_S, gone.is_set):   # at once, unless one just went
                    gone.wait(sent_at + COALESCE_S - time.monotonic())
        except GONE as exc:
            log.debug("%s: reader gone: %s", self.address_string(), type(exc).__name__)

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)


class Snapshot:
    """One version of the page in one language, serialized once for every reader."""

    def __init__(self, view: dict) -> None:
        self.made_at = time.monotonic()
        self.version: int = view["version"]
        self.body = json.dumps(view, separators=(",", ":")).encode()
        self.event = b"data: " + self.body + b"\n\n"


class Snapshots:
    """The page as bytes, made at most once per board version and language."""

    def __init__(self, board: Board, finished: int) -> None:
        self.board, self.finished = board, finished
        self.made = 0                                 # how many were made: what bench counts
        self._latest: dict[str, Snapshot] = {}
        self._lock = threading.Lock()

    def get(self, language: str) -> Snapshot:
        with self._lock:                             # one reader makes it, the others wait
            latest = self._latest.get(language)
            # the page also says how long games have lasted by now: a quiet board is made
            # again after FRESH_S, for /state.json (a live reader gets it with the next change)
            if latest is None or latest.version != self.board.version \
                    or time.monotonic() - latest.made_at >= FRESH_S:
                latest = Snapshot(page(self.board.view(), language, self.finished))
                self._latest[language] = latest
                self.made += 1
            return latest


class DashboardServer(HTTPServer):
    request_queue_size = 128           # the kernel's queue of connections not yet accepted: with
                                       # the default 5 a storm makes real clients wait out SYN retries

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
        self.snapshots = Snapshots(board, self.finished)
        self.stopping = threading.Event()
        self.busy = 0                                 # clients answered 503, for the log
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._stream_slots = threading.BoundedSemaphore(MAX_STREAMS)
        self.streams = ReaderWatch(board)             # the live readers, watched for closing
        self._heading: dict[socket.socket, None] = {}  # slots still reading headers, oldest first
        self._heading_lock = threading.Lock()
        self.connections = 0                          # taken and not yet closed
        self._served = threading.Condition()
        self._accepted: queue.SimpleQueue = queue.SimpleQueue()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        super().__init__((host, port), Handler)

    def host_allowed(self, host_header: str) -> bool:
        """On loopback any Host; exposed with names configured, only those names."""
        if not (self.exposed and self.names):
            return True
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        return name.strip("[]").lower() in self.names

    def heading(self, connection: socket.socket, reading: bool) -> None:
        """Note a slot that is still reading its request's headers, or no longer."""
        with self._heading_lock:
            if reading:
                self._heading[connection] = None
            else:
                self._heading.pop(connection, None)

    def streaming(self, connection: socket.socket) -> threading.Event | None:
        """The connection becomes a live reader: it moves to a stream slot, freeing its
        request slot; None when every stream slot is taken. The event is set once the
        reader has closed."""
        if not self._stream_slots.acquire(blocking=False):
            return None
        self._slots.release()
        return self.streams.watch(connection)

    def turned_away(self) -> None:
        self.busy += 1
        if self.busy in (1, 100, 10_000) or self.busy % 100_000 == 0:
            log.warning("dashboard: %d clients turned away: %d connections and %d readers at "
                        "once", self.busy, MAX_CONNECTIONS, MAX_STREAMS)

    def _evict_slowest(self) -> bool:
        """Close the oldest connection still sending its headers and wait for its slot."""
        with self._heading_lock:
            if not self._heading:
                return False
            oldest = next(iter(self._heading))
            del self._heading[oldest]
        try:
            oldest.shutdown(socket.SHUT_RDWR)            # its thread's read ends at once
        except OSError:
            pass
        return self._slots.acquire(timeout=EVICT_S)

    def process_request(self, request, client_address) -> None:
        """Each connection to one of MAX_CONNECTIONS threads; beyond, a slow client's slot,
        else a 503 and close."""
        if not (self._slots.acquire(blocking=False) or self._evict_slowest()):
            self.turned_away()
            try:
                request.settimeout(1.0)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        with self._served:
            self.connections += 1
        self.heading(request, True)                       # until its headers are in
        self._accepted.put((request, client_address))

    def _serve(self) -> None:
        """One of MAX_CONNECTIONS threads, started once: a storm of connections costs no
        thread's start each (which, on a busy machine, kept the listening queue full)."""
        while (accepted := self._accepted.get()) is not None:
            request, client_address = accepted
            try:
                self.finish_request(request, client_address)
            except Exception:                             # noqa: BLE001  (one line: handle_error)
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)
                if self.streams.forget(request):
                    self._stream_slots.release()
                else:
                    self._slots.release()
                with self._served:
                    self.connections -= 1
                    self._served.notify_all()

    def handle_error(self, request, client_address) -> None:
        """A client that went away is a debug line; anything else one error line, no
        traceback (a storm of them would fill the log)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, GONE):
            log.debug("%s: gone: %s", client_address[0], type(exc).__name__)
        else:
            log.error("dashboard: a request from %s failed: %s: %.200s", client_address[0],
                      type(exc).__name__, exc)

    def wait_connections(self, most: int, timeout: float) -> bool:
        """Wait until at most `most` connections are served (True), or `timeout` passed."""
        with self._served:
            return self._served.wait_for(lambda: self.connections <= most, timeout)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def start(self) -> DashboardServer:
        for n in range(MAX_CONNECTIONS + MAX_STREAMS):    # a thread for each slot of each kind
            threading.Thread(target=self._serve, name=f"dashboard-{n}", daemon=True).start()
        self.streams.start()
        threading.Thread(target=self.serve_forever, args=(0.1,), name="dashboard",
                         daemon=True).start()
        return self

    def close(self) -> None:
        self.stopping.set()
        self.board.close()
        self.streams.close()
        self.shutdown()
        for _ in range(MAX_CONNECTIONS + MAX_STREAMS):
            self._accepted.put(None)
        self.server_close()


class ReaderWatch:
    """One thread watching every live reader's socket: a reader that closes (or resets) makes
    its socket readable, and its stream is told at once, so its slot is free at once instead
    of at the next keepalive's failed write."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._gone: dict[socket.socket, threading.Event] = {}
        self._wake_r, self._wake_w = socket.socketpair()
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._stopping = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._run, name="dashboard-readers", daemon=True).start()

    def watch(self, connection: socket.socket) -> threading.Event:
        gone = threading.Event()
        with self._lock:
            self._gone[connection] = gone
            self._selector.register(connection, selectors.EVENT_READ, gone)
        self._wake_w.send(b"x")                 # select again, this socket included
        return gone

    def forget(self, connection: socket.socket) -> bool:
        """True if the connection was a reader (now forgotten)."""
        with self._lock:
            gone = self._gone.pop(connection, None)
            if gone is not None:
                try:
                    self._selector.unregister(connection)
                except (KeyError, ValueError):
                    pass                       # already dropped when it closed
        return gone is not None

    def close(self) -> None:
        self._stopping.set()
        self._wake_w.send(b"x")

    def _run(self) -> None:
        while not self._stopping.is_set():
            for key, _ in self._selector.select():
                if key.fileobj is self._wake_r:
                    self._wake_r.recv(4096)
                    continue
                self._closed(key.fileobj)
        self._selector.close()

    def _closed(self, connection) -> None:
        """Readable: the reader closed, reset, or sent bytes a reader never sends: done."""
        with self._lock:
            gone = self._gone.get(connection)
            try:
                self._selector.unregister(connection)
            except (KeyError, ValueError):
                pass
        if gone is not None:
            gone.set()
            self.board.wake()


def bounded(receive):
    """The board's receive, refusing a table message far bigger than any table sends: 256
    tables of hostile states would otherwise hold gigabytes as Python objects."""
    def taking(topic: str, payload: bytes) -> None:
        if len(payload) > TABLE_MESSAGE_MAX and table_of(topic) is not None:
            log.warning("fleet: dropped the message on %.80s: %d bytes, more than %d",
                        topic, len(payload), TABLE_MESSAGE_MAX)
            return
        receive(topic, payload)
    return taking


def subscribe(settings, board: Board, client_id: str) -> Link:
    """The board's feed: the tables' topics, in a session the broker keeps while we are away."""
    return Link(settings, client_id, subscriptions=(SHARED_TABLES, *TABLE_FILTERS),
                on_message=bounded(board.receive),
                on_up=lambda _link: board.broker_link(True),
                on_down=lambda: board.broker_link(False), clean=False).start()
