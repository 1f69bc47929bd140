"""The dashboard's server: every table of the café, live, in a browser, and the staff's back
office under /admin (device/fleet/backoffice).

The wall screen is read-only: one page (no data in it), /words.json (its own words),
/state.json and /events (server-sent events) with the data. It listens on 127.0.0.1 unless
told otherwise; on any other address the data asks for a token, given only as
`Authorization: Bearer` (a URL's query ends up in logs and browser history), and with
`names` a request for any other Host is refused (a DNS-rebinding page cannot reach it).

It runs Starlette under uvicorn on a thread of its own, with the table's page's guarded
HTTP/1.1 protocol (device/web/guard.py): a connection gets its request's head in within
min(HEADER_S, IDLE_S) however it trickles it, or is closed; at most MAX_CONNECTIONS are
open, a new client takes the place of the oldest still sending its head, and only when
every place serves a request is it answered 503. A live reader of /events leaves its place
for one of MAX_STREAMS of its own (beyond, 503), freed as soon as it closes. It gets the whole board at once
and after each change, at most one per COALESCE_S, the newest; one that does not take what
it is sent within IDLE_S is dropped (its connection aborted, one debug line).
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import threading
import time
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from device.web.guard import Guard, GuardedH11
from device.web.headers import page_headers
from device.web.server import Changes, event_stream
from device.web.serving import bind

from .board import Board
from .page import FINISHED, labels, language_of
from .snapshots import Snapshots

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
IDLE_S = 10.0                          # the longest wait for a request, or for a reader to read
HEADER_S = 10.0                        # the longest a request line and its headers may take
COALESCE_S = 0.5                       # a live reader gets at most two boards a second
MAX_CONNECTIONS = 32                   # a café's screens, its staff and scripts, with room to spare
MAX_STREAMS = 32                       # live readers of /events, on places of their own
BACKLOG = 1024                         # connections the kernel holds until taken: a storm beyond
                                       # the loop's pace must not make real clients wait out SYN retries
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
HEADERS = page_headers()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


CONNECTION = "tabletop.connection"      # the scope's key for the connection's own protocol


class Stalled(Exception):
    """A reader took nothing within IDLE_S: its connection is to be aborted."""


class Places(Guard):
    """The guard with the dashboard's own limits, read when used (tests make them small),
    and a way to wait until few connections are left."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()
        self.streams: set[GuardedH11] = set()

    def streaming(self, protocol: GuardedH11) -> bool:
        """The connection becomes a live reader: it leaves its place for a stream's, or
        False when every stream's place is taken."""
        if len(self.streams) >= MAX_STREAMS:
            return False
        self.open.pop(protocol, None)
        self.streams.add(protocol)
        return True

    def count(self) -> int:
        return len(self.open) + len(self.streams)

    def most(self) -> int:
        return MAX_CONNECTIONS

    def deadline(self) -> float:
        return min(HEADER_S, IDLE_S)

    def stall(self) -> float:
        return IDLE_S

    def closed(self, protocol: GuardedH11) -> None:
        super().closed(protocol)
        self.streams.discard(protocol)
        with self.changed:
            self.changed.notify_all()


class Guarded(GuardedH11):
    """A stalled reader's connection is aborted (its unsent bytes dropped), not closed: a
    close would wait for a reader that never reads."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        app = self.app

        async def aborting(scope, receive, send) -> None:
            try:
                await app({**scope, CONNECTION: self}, receive, send)
            except Stalled:
                log.debug("dashboard: a reader stopped reading: dropped")
                self.transport.abort()
                await asyncio.sleep(0)         # its connection_lost first: the cycle is over
        self.app = aborting


class DashboardServer:
    def __init__(self, board: Board, host: str, port: int, token: str | None,
                 names: tuple[str, ...] = (), language: str = "en",
                 finished: int = FINISHED, backoffice=None) -> None:
        """`backoffice` (device.fleet.backoffice): the staff's pages under /admin."""
        if not is_loopback(host) and not token:
            raise ValueError(f"{host} is not a loopback address: give a token "
                             "(--token or fleet.dashboard_token)")
        self.board, self.token = board, token
        self.language, self.finished = language_of(language, "en"), finished
        self.names = {name.lower() for name in names}
        self.exposed = not is_loopback(host)
        self.snapshots = Snapshots(board, self.finished)
        self.backoffice = backoffice
        self.places = Places()
        self.socket = bind(host, port, tries=1)
        self.server_address = self.socket.getsockname()
        self.ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self.assets = {path: (resources.files(__package__).joinpath("assets", name).read_bytes(), kind)
                       for path, (name, kind) in STATIC.items()}

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def host_allowed(self, host_header: str) -> bool:
        """On loopback any Host; exposed with names configured, only those names."""
        if not (self.exposed and self.names):
            return True
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        return name.strip("[]").lower() in self.names

    def wait_connections(self, most: int, timeout: float) -> bool:
        """Wait until at most `most` connections are open (True), or `timeout` passed."""
        with self.places.changed:
            return self.places.changed.wait_for(lambda: self.places.count() <= most, timeout)

    # ---- running -------------------------------------------------------------------------

    def start(self) -> DashboardServer:
        self._thread = threading.Thread(target=self._run, name="dashboard", daemon=True)
        self._thread.start()
        self.ready.wait()
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except Exception as exc:                 # noqa: BLE001  (one line, no traceback)
            log.error("dashboard: the server stopped: %s: %s", type(exc).__name__, exc)
        finally:
            self.ready.set()

    async def _serve(self) -> None:
        import uvicorn
        from uvicorn.server import ServerState
        loop = self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self.changes = Changes(loop)
        config = uvicorn.Config(self.app(), log_config=None, log_level="error", access_log=False,
                                proxy_headers=False, server_header=False, date_header=False,
                                lifespan="off", http="h11", ws="none")
        config.load()
        state = ServerState()
        server = await loop.create_server(
            lambda: Guarded(config=config, server_state=state, app_state={}, guard=self.places),
            sock=self.socket, backlog=BACKLOG)
        watcher = threading.Thread(target=self._watch, name="dashboard-board", daemon=True)
        watcher.start()
        self.ready.set()
        await self._stop.wait()
        self.changes.closing = True
        self.changes.bump()
        server.close()
        for connection in list(state.connections):
            connection.transport.abort()       # each stream sees its reader gone, and ends
        if state.tasks:
            await asyncio.wait(list(state.tasks), timeout=1.0)

    def _watch(self) -> None:
        """The board's changes (paho's thread) as the streams' wake-ups (the web's loop)."""
        version = self.board.version
        while not self.board.closed:
            if self.board.wait(version, 3600.0):
                version = self.board.version
                try:
                    self.changes.bump()
                except RuntimeError:                 # the web's loop has ended: so do we
                    return

    def close(self) -> None:
        self.board.close()
        if self._loop is not None and self._stop is not None:
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:                 # its loop already ended
                pass
        if self._thread is not None:
            self._thread.join(5.0)
        self.socket.close()

    # ---- the routes ----------------------------------------------------------------------

    def app(self):
        routes = [*(Route(path, self.asset) for path in STATIC),
                  Route("/words.json", self.words), Route("/state.json", self.state),
                  Route("/events", Events(self))]
        if self.backoffice is not None:
            routes.append(Mount("/admin", app=self.backoffice.app()))
        wall = Starlette(routes=routes)

        async def hosted(scope, receive, send) -> None:
            """Exposed with names, a request for another Host is refused before anything."""
            if scope["type"] == "http":
                host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
                if not self.host_allowed(host):
                    await text(421, "unknown host name\n")(scope, receive, send)
                    return
            await wall(scope, receive, send)
        return hosted

    async def asset(self, request: Request) -> Response:
        body, kind = self.assets[request.url.path]
        return Response(body, 200, headers=HEADERS, media_type=kind)

    def language_of(self, request: Request) -> str:
        return language_of(request.query_params.get("lang"), self.language)

    async def words(self, request: Request) -> Response:
        language = self.language_of(request)
        return json_bytes(json.dumps({"language": language, "words": labels(language)}).encode())

    def allowed(self, request: Request) -> bool:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        return self.token is None or (scheme == "Bearer" and
                                      hmac.compare_digest(self.token.encode(), given.strip().encode()))

    async def state(self, request: Request) -> Response:
        if not self.allowed(request):
            return refused()
        snapshot = await asyncio.get_running_loop().run_in_executor(
            None, self.snapshots.get, self.language_of(request))
        return json_bytes(snapshot.body)


def text(status: int, words: str, **extra: str) -> Response:
    return Response(words, status, headers={**HEADERS, **extra}, media_type="text/plain")


def json_bytes(body: bytes) -> Response:
    return Response(body, 200, headers=HEADERS, media_type="application/json")


def refused() -> Response:
    return text(403, "token needed: Authorization: Bearer TOKEN (the page: open it as /#token=TOKEN)\n")


class Events:
    """/events: server-sent events, the whole board at first and after each change."""

    def __init__(self, server: DashboardServer) -> None:
        self.server = server

    async def __call__(self, scope, receive, send) -> None:
        request = Request(scope, receive)
        if not self.server.allowed(request):
            await refused()(scope, receive, send)
            return
        if not self.server.places.streaming(scope[CONNECTION]):
            await text(503, "too many readers\n", **{"Retry-After": "5"})(scope, receive, send)
            return
        async with event_stream(receive, send) as gone:
            await self._stream(self.server.language_of(request), send, gone)

    async def _stream(self, language: str, send, gone: asyncio.Future) -> None:
        server, loop = self.server, asyncio.get_running_loop()
        changes, sent, sent_at = server.changes, None, 0.0
        while not changes.closing and not gone.done():
            changed = changes.event                      # before the board is read: no change lost
            snapshot = await loop.run_in_executor(None, server.snapshots.get, language)
            if snapshot.version != sent:
                chunk, sent, sent_at = snapshot.event, snapshot.version, time.monotonic()
            else:
                chunk = b": still here\n\n"
            try:
                async with asyncio.timeout(IDLE_S):
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
            except TimeoutError:
                raise Stalled from None
            waiting = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait([waiting, gone], timeout=KEEPALIVE_S,
                                         return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            pause = sent_at + COALESCE_S - time.monotonic()
            if waiting in done and pause > 0:            # at once, unless one just went
                await asyncio.wait([gone], timeout=pause)

