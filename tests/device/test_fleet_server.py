"""The dashboard's web server under misuse, on loopback: idle and half-sent requests, a flood
of connections, a foreign Host header. Bounded loops only."""
from __future__ import annotations

import socket

import pytest

from device.fleet.dashboard import server as web
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.server import DashboardServer
from device.fleet.topics import table_topic


@pytest.fixture
def quick(monkeypatch):
    """A server that gives up on a silent client after half a second, four clients at most."""
    monkeypatch.setattr(web.Handler, "timeout", 0.5)
    monkeypatch.setattr(web, "MAX_CONNECTIONS", 4)
    board = Board()
    board.receive(table_topic("t1", "online"), b"true")
    server = DashboardServer(board, "127.0.0.1", 0, token="tide-3").start()
    yield server
    server.close()


def connect(server) -> socket.socket:
    client = socket.create_connection(server.server_address[:2], timeout=10)
    return client


def answer(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    got = b""
    while chunk := client.recv(4096):
        got += chunk
    return got


def ask(server, path: str = "/state.json", host: str = "127.0.0.1",
        token: str = "tide-3") -> bytes:
    with connect(server) as client:
        client.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}\r\n"
                       f"Authorization: Bearer {token}\r\n\r\n".encode())
        return answer(client)


def test_idle_and_half_sent_requests_are_closed(quick):
    silent, partial = connect(quick), connect(quick)
    partial.sendall(b"GET /state.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never finished
    assert answer(silent) == b"" and answer(partial) == b""              # closed by the server
    silent.close(), partial.close()
    assert ask(quick).startswith(b"HTTP/1.0 200")


def test_beyond_the_cap_a_client_gets_503_and_the_rest_keep_working(quick):
    held = [connect(quick) for _ in range(web.MAX_CONNECTIONS)]
    for client in held:
        client.sendall(b"GET /")                                     # each holds a thread
    for _ in range(20):                                              # a flood, bounded
        assert ask(quick).startswith(b"HTTP/1.0 503")
    for client in held:
        assert answer(client) == b""                                 # timed out, slot freed
        client.close()
    replies = [ask(quick) for _ in range(100)]                       # bounded: a slot frees
    assert any(reply.startswith(b"HTTP/1.0 200") for reply in replies)  # as its thread ends
    assert replies[-1].startswith(b"HTTP/1.0 200")


def test_exposed_it_answers_only_to_its_names(quick):
    quick.names, quick.exposed = {"cafe-screen.local"}, True            # as if on the LAN
    assert ask(quick, host="cafe-screen.local:8080").startswith(b"HTTP/1.0 200")
    assert ask(quick, host="evil.example").startswith(b"HTTP/1.0 421")
    assert ask(quick, host="cafe-screen.local", token="tide-2").startswith(b"HTTP/1.0 403")


def test_many_requests_leave_memory_bounded(quick):
    for n in range(300):                                             # bounded: more than the cap
        quick.board.receive(table_topic(f"x{n}", "online"), b"true")
    assert len(quick.board.view()["tables"]) == 256
    for _ in range(50):
        assert ask(quick).startswith(b"HTTP/1.0 200")
