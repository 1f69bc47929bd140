"""The table's page on loopback beside a simulated table, and a plain HTTP client for it."""
from __future__ import annotations

import json
import socket

from device.web.serving import WebPage
from tests.device.table import SimTable


def serve(tmp_path, table: SimTable | None = None) -> tuple[SimTable, WebPage]:
    """A simulated table and its page on a free port, its first frame out (the page started).
    The join code's clock is the table's: wrong codes age in virtual time."""
    table = table or SimTable(tmp_path)
    web = WebPage(table.app, "127.0.0.1", 0, tmp_path, clock=table.clock)
    web.simulated(iter(()), table.clock, table.frames, table.field)
    table.frames.last = None                 # the frame now is the page's first
    table.frames.update(table.app)
    assert web.ready.wait(60) and web.url, "the page did not start"
    return table, web


def port_of(web: WebPage) -> int:
    assert web.url is not None
    return int(web.url.rstrip("/").rsplit(":", 1)[1])


def connect(web: WebPage) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port_of(web)), timeout=30)


def raw(web: WebPage, request: bytes) -> bytes:
    """Send the bytes as they are; everything the server answers until it closes."""
    with connect(web) as client:
        client.sendall(request)
        got = b""
        while chunk := client.recv(65536):
            got += chunk
    return got


def ask(web: WebPage, method: str, path: str, body: object = None, cookie: str | None = None,
        kind: str = "application/json") -> tuple[int, dict[str, str], bytes]:
    """One request (HTTP/1.1, the connection closed after it): status, headers, body."""
    data = b"" if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    if body is not None:
        head += [f"Content-Type: {kind}", f"Content-Length: {len(data)}"]
    if cookie:
        head.append(f"Cookie: {cookie}")
    return parse(raw(web, ("\r\n".join(head) + "\r\n\r\n").encode() + data))


def parse(reply: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = reply.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def joined(web: WebPage) -> str:
    """A session's cookie, as a phone gets it with the code the OLED shows."""
    status, headers, _ = ask(web, "POST", "/api/join", {"code": web.desk.joining.code})
    assert status == 200
    return headers["set-cookie"].split(";")[0]
