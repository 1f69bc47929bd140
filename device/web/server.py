"""The page's HTTP side: Starlette routes over the desk (docs/web.md is the contract).

Everything but the page itself and its assets needs the session cookie that the join code
opens (401 without); a body is JSON of at most BODY_MAX bytes, in within BODY_S; a bad line
is a 400 with the simulator's own words. The stream of frames (/api/events) sends each new
view once and a comment now and then (device/web/watch.py says when), and drops a reader
that does not take what it is sent (device/web/guard.py) or whose session ended with its game.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, Router

from .bodies import BODY_MAX, BodyRefused, json_body
from .desk import Desk
from .headers import page_headers
from .joining import COOKIE
from .watch import Watch
from .words import page, say

log = logging.getLogger(__name__)

ASSETS = {"/": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/setup.js": ("setup.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
HEADERS = page_headers("default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'; "
                       "form-action 'none'")


class Refused(Exception):
    """A body refused: its status, and why as a key of the page's catalog with its values."""

    def __init__(self, status: int, key: str, **args: object) -> None:
        super().__init__(key)
        self.status, self.key, self.values = status, key, args


def answer(status: int, body: dict[str, Any], **extra: str) -> JSONResponse:
    return JSONResponse(body, status, headers={**HEADERS, **extra})


def refusal(exc: Refused, language: str) -> JSONResponse:
    """A body refused unread (too long, too slow) leaves the connection unreadable: closed."""
    unread = {"Connection": "close"} if exc.status in (408, 413) else {}
    return answer(exc.status, {"error": say(language, exc.key, **exc.values)}, **unread)


class Changes:
    """The café dashboard's side of 'the board changed': an event set (on the web's loop) at
    each bump. The table's page has its watch instead (device/web/watch.py)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        self.closing = False

    def bump(self) -> None:
        """From any thread: wake the streams."""
        self.loop.call_soon_threadsafe(self._bump)

    def _bump(self) -> None:
        self.event.set()
        self.event = asyncio.Event()


class TablePage:
    """The routes, over one desk."""

    def __init__(self, desk: Desk, watch: Watch) -> None:
        self.desk, self.watch = desk, watch
        self.assets = {path: (resources.files(__package__).joinpath("assets", name).read_bytes(), kind)
                       for path, (name, kind) in ASSETS.items()}
        # Starlette's router is the whole app: its application class adds only middleware
        # for errors and exceptions that uvicorn's own 500 and the router's 404 and 405 cover,
        # and half a megabyte of imports (docs/web.md)
        self.app = Router(routes=[
            *(Route(path, self.asset) for path in ASSETS),
            Route("/api/join", self.join, methods=["POST"]),
            Route("/api/input", self.input, methods=["POST"]),
            Route("/api/players", self.players, methods=["GET", "POST"]),
            Route("/api/setup", self.setup, methods=["GET", "POST"]),
            Route("/api/screen", self.screen),
            Route("/api/frame.png", self.frame),
            Route("/api/events", Events(self)),
        ])

    async def asset(self, request: Request) -> Response:
        body, kind = self.assets[request.url.path]
        if request.url.path == "/":
            body = page(body, self.language())
        return Response(body, 200, headers=HEADERS, media_type=kind)

    def language(self) -> str:
        """The table's language now (a plain attribute's read: the menu may change it)."""
        return self.desk.app.language

    def refused(self, status: int, key: str, **extra: str) -> JSONResponse:
        return answer(status, {"error": say(self.language(), key)}, **extra)

    def admitted(self, request: Request) -> bool:
        return self.desk.joining.admits(request.cookies.get(COOKIE))

    async def join(self, request: Request) -> Response:
        address = request.client.host if request.client else "?"
        if self.desk.joining.limited(address):
            return self.refused(429, "web.too_many_codes", **{"Retry-After": "60"})
        try:
            code = (await body(request, "code"))
        except Refused as exc:
            return refusal(exc, self.language())
        token = self.desk.joining.join(address, code)
        if token is None:
            return self.refused(403, "web.wrong_code")
        reply = answer(200, {"joined": True})
        reply.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return reply

    async def input(self, request: Request) -> Response:
        if not self.admitted(request):
            return self.refused(401, "web.join_first")
        try:
            line = await body(request, "line")
        except Refused as exc:
            return refusal(exc, self.language())
        problem, view = await asyncio.get_running_loop().run_in_executor(None, self.desk.take, line)
        self.watch.look()                        # its frame to the streams now, not at the next look
        if problem is not None:
            return answer(400, {"error": problem})
        return answer(200, {"screen": view})

    async def setup(self, request: Request) -> Response:
        """The games and the setup on now (GET), or a setup line (POST {"line": ...}) that
        the wizard takes as a step: 200 with the new screen and setup, 400 with why."""
        if not self.admitted(request):
            return self.refused(401, "web.join_first")
        loop = asyncio.get_running_loop()
        if request.method == "POST":
            try:
                line = await body(request, "line")
            except Refused as exc:
                return refusal(exc, self.language())
            problem, view = await loop.run_in_executor(None, self.desk.setup, line)
            self.watch.look()
            if problem is not None:
                return answer(400, {"error": problem})
            now = await loop.run_in_executor(None, self.desk.setup_now)
            return answer(200, {"screen": view, **now})
        return answer(200, await loop.run_in_executor(None, self.desk.setup_now))

    async def players(self, request: Request) -> Response:
        """The roster's names (GET), or a typed name added to it (POST {"name": ...})."""
        if not self.admitted(request):
            return self.refused(401, "web.join_first")
        loop = asyncio.get_running_loop()
        if request.method == "POST":
            try:
                name = await body(request, "name")
            except Refused as exc:
                return refusal(exc, self.language())
            problem = await loop.run_in_executor(None, self.desk.add_name, name)
            self.watch.look()
            if problem is not None:
                return answer(400, {"error": problem})
        names = await loop.run_in_executor(None, self.desk.names)
        return answer(200, {"players": names})

    async def screen(self, request: Request) -> Response:
        if not self.admitted(request):
            return self.refused(401, "web.join_first")
        frame = self.desk.latest
        return answer(200, frame.view if frame is not None else {})

    async def frame(self, request: Request) -> Response:
        if not self.admitted(request):
            return self.refused(401, "web.join_first")
        frame = self.desk.latest
        if frame is None:
            return self.refused(404, "web.no_frame")
        png = await asyncio.get_running_loop().run_in_executor(None, frame.png)
        return Response(png, 200, headers=HEADERS, media_type="image/png")


async def body(request: Request, key: str) -> str:
    """The one text field `key` of a JSON object of at most BODY_MAX bytes; Refused else."""
    try:
        data = await json_body(request)
    except BodyRefused as exc:
        counted = {"n": BODY_MAX} if exc.why == "size" else {}
        raise Refused(exc.status, f"web.body_{exc.why}", **counted) from None
    if not isinstance(data, dict) or set(data) != {key} or not isinstance(data[key], str):
        raise Refused(400, "web.body_shape", shape=f'{{"{key}": "..."}}')
    return data[key]


class Events:
    """/api/events: server-sent events, one `data:` line of the view for each new frame."""

    def __init__(self, page: TablePage) -> None:
        self.page = page

    async def __call__(self, scope, receive, send) -> None:
        request = Request(scope, receive)
        if not self.page.admitted(request):
            await self.page.refused(401, "web.join_first")(scope, receive, send)
            return
        async with event_stream(receive, send) as gone:
            with self.page.watch.following():
                await self._stream(request, send, gone)

    async def _stream(self, request: Request, send, gone: asyncio.Future) -> None:
        watch, sent = self.page.watch, None
        while not watch.closing and not gone.done() and self.page.admitted(request):
            frame = self.page.desk.latest
            woken = watch.next
            if frame is not None and frame.version != sent:
                chunk, sent = frame.event(), frame.version
            else:
                chunk = b": still here\n\n"
            # a reader that stopped reading makes this wait: device/web/guard.py drops it
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await asyncio.wait([woken, gone], return_when=asyncio.FIRST_COMPLETED)


@contextlib.asynccontextmanager
async def event_stream(receive, send) -> AsyncIterator[asyncio.Future]:
    """An answer of server-sent events begun: what it yields is done once the reader has gone.
    The table's page and the café's dashboard stream through it alike."""
    gone = asyncio.ensure_future(_disconnect(receive))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream"), (b"cache-control", b"no-store"),
            (b"x-content-type-options", b"nosniff")]})
        yield gone
    finally:
        gone.cancel()


async def _disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
