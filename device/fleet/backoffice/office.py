"""The back office's web side: /admin, its page, and its JSON API (docs/fleet.md).

Without a staff password /admin says how to set one and does nothing else. With one, every
/admin/api/ route but login answers 401 without a session, and every change 403 without
the session's CSRF token (header X-CSRF-Token). The session cookie is Starlette's signed
one (itsdangerous), HttpOnly, SameSite=Strict, path /admin; it only names a session kept
here (sessions.py), so a logout or its end is the end of it, whatever a copy of the cookie says.
"""
from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, get_route_path

from device.web.headers import page_headers

from .forms import Refused, answer, fields
from .password import Password
from .sessions import SESSION_S, Sessions, Tries

SECRET = "dashboard-secret"        # the key that signs the session cookies, made once
COOKIE = "tabletop-admin"
NO_PASSWORD = ("No staff password is set. On the café machine, run: "
               "tabletop dashboard password (then type it, and Enter).")
ASSETS = {"/": ("admin.html", "text/html; charset=utf-8"),
          "/admin.js": ("admin.js", "text/javascript; charset=utf-8"),
          "/house.js": ("house.js", "text/javascript; charset=utf-8"),
          "/admin.css": ("admin.css", "text/css; charset=utf-8")}
PAGE_HEADERS = page_headers("default-src 'self'; frame-ancestors 'none'; form-action 'none'; "
                            "base-uri 'none'")

Handler = Callable[[Request], Awaitable[Response]]


def secret(state_dir: Path) -> str:
    """The cookies' signing key: random, made at the first start, readable by its owner only."""
    path = Path(state_dir) / SECRET
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        Path(state_dir).mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key)
        return key


class BackOffice:
    """The routes under /admin; `api` adds the staff's data routes (api.py)."""

    def __init__(self, state_dir: Path, clock: Callable[[], float] = time.monotonic,
                 api: Callable[[BackOffice], list[Route]] | None = None) -> None:
        self.state_dir = Path(state_dir)
        self.password = Password(self.state_dir)
        self.sessions, self.tries = Sessions(clock), Tries(clock)
        self.key = secret(self.state_dir)
        self.api = api
        self.assets = {path: (resources.files(__package__).joinpath("assets", name).read_bytes(), kind)
                       for path, (name, kind) in ASSETS.items()}

    def app(self) -> Starlette:
        routes = [*(Route(path, self.asset) for path in ASSETS),
                  Route("/api/login", self.login, methods=["POST"]),
                  Route("/api/logout", self.staff(self.logout, change=True), methods=["POST"]),
                  Route("/api/session", self.staff(self.session))]
        if self.api is not None:
            routes += self.api(self)
        return Starlette(routes=routes, middleware=[Middleware(
            SessionMiddleware, secret_key=self.key, session_cookie=COOKIE,
            max_age=int(SESSION_S), path="/admin", same_site="strict", https_only=False)])

    async def asset(self, request: Request) -> Response:
        if not self.password.is_set():
            if request.url.path.rstrip("/").endswith("/admin"):
                return Response(NO_PASSWORD + "\n", 200, headers=PAGE_HEADERS, media_type="text/plain")
            return Response("not found\n", 404, headers=PAGE_HEADERS, media_type="text/plain")
        body, kind = self.assets[get_route_path(request.scope) or "/"]
        return Response(body, 200, headers=PAGE_HEADERS, media_type=kind)

    def staff(self, handler: Handler, change: bool = False) -> Handler:
        """The route for a staffer only: a session, and for a change its CSRF token."""
        async def guarded(request: Request) -> Response:
            if not self.password.is_set():
                return answer(503, {"error": NO_PASSWORD})
            sid = request.session.get("sid")
            if self.sessions.csrf(sid) is None:
                return answer(401, {"error": "log in first"})
            if change and not self.sessions.checks(sid, request.headers.get("x-csrf-token")):
                return answer(403, {"error": "this change lacks its session's token: reload the page"})
            return await handler(request)
        return guarded

    async def login(self, request: Request) -> Response:
        if not self.password.is_set():
            return answer(503, {"error": NO_PASSWORD})
        address = request.client.host if request.client else "?"
        if self.tries.limited(address):
            return answer(429, {"error": "too many wrong passwords: wait a minute"}, **{"Retry-After": "60"})
        try:
            given = (await fields(request, {"password": str}))["password"]
        except Refused as exc:
            return answer(exc.status, {"error": exc.error})
        if not await asyncio.get_running_loop().run_in_executor(None, self.password.matches, given):
            self.tries.wrong(address)
            return answer(401, {"error": "wrong password"})
        self.sessions.end(request.session.get("sid"))
        request.session.clear()                  # whatever the cookie held: a new session
        sid, csrf = self.sessions.open()
        request.session["sid"] = sid
        return answer(200, {"csrf": csrf})

    async def logout(self, request: Request) -> Response:
        self.sessions.end(request.session.get("sid"))
        request.session.clear()
        return answer(200, {"out": True})

    async def session(self, request: Request) -> Response:
        return answer(200, {"csrf": self.sessions.csrf(request.session.get("sid"))})
