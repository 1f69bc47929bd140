"""The table's page under misuse, on loopback, as the dashboard's server is tested: idle,
half-sent and trickled requests, slow clients holding every place, a storm of resets,
stream readers that never read. Bounded loops only; the deadlines are made small so no
test waits long. (uvicorn alone keeps a silent or trickling connection open for ever:
device/web/guard.py is what closes them.)"""
from __future__ import annotations

import logging
import select
import socket
import struct

import pytest

from device.web import guard, watch
from tests.device.webpage import ask, connect, joined, port_of, serve


@pytest.fixture
def quick(tmp_path, monkeypatch):
    """A page that gives a request's head half a second, and 8 connections at most; a stream
    says it is there each 0.1 s and drops a reader that took nothing for half a second."""
    monkeypatch.setattr(guard, "HEAD_S", 0.5)
    monkeypatch.setattr(guard, "MAX_CONNECTIONS", 8)
    monkeypatch.setattr(watch, "KEEPALIVE_S", 0.1)
    monkeypatch.setattr(guard, "STALL_S", 0.5)
    table, web = serve(tmp_path)
    yield web
    web.close()


def closed_by_server(client: socket.socket) -> bool:
    """Everything the server sends until it closes: True if that was nothing. Closed with a
    reset is closed too: a byte that came in as the server gave up makes its close a reset."""
    got = b""
    try:
        while chunk := client.recv(4096):
            got += chunk
    except ConnectionResetError:
        pass
    return got == b""


def trickled(client: socket.socket) -> None:
    """A byte each 50 ms until the server closes (its head deadline is real time: a trickle
    must outlast it to show that bytes do not put it off)."""
    for _ in range(2000):                            # bounded: 100 s, were it never closed
        readable, _, _ = select.select([client], [], [], 0.05)
        if readable:
            return
        try:
            client.sendall(b"X")
        except (BrokenPipeError, ConnectionResetError):
            return                                   # closed between the look and the byte
    pytest.fail("a trickling client was never closed")


def test_idle_and_half_sent_requests_are_closed(quick):
    silent, partial = connect(quick), connect(quick)
    partial.sendall(b"GET /api/screen HTTP/1.1\r\nHost: 127.0.0.1\r\n")     # never finished
    assert closed_by_server(silent) and closed_by_server(partial)
    silent.close(), partial.close()
    assert ask(quick, "GET", "/")[0] == 200


def test_a_client_trickling_its_headers_is_closed_at_the_head_deadline(quick):
    with connect(quick) as client:
        client.sendall(b"GET /api/screen HTTP/1.1\r\n")
        trickled(client)
        assert closed_by_server(client)              # answered nothing
    assert ask(quick, "GET", "/")[0] == 200


def test_a_kept_alive_connection_gets_the_same_deadline_for_its_next_request(quick):
    with connect(quick) as client:
        client.sendall(b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while b"}" not in got:                       # the first answer, whole
            got += client.recv(65536)
        assert closed_by_server(client)              # then silence: closed


def test_slow_clients_holding_every_place_do_not_keep_real_requests_out(quick):
    slow = [connect(quick) for _ in range(guard.MAX_CONNECTIONS)]
    for client in slow:
        client.sendall(b"GET /api/screen HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
    for _ in range(10):
        assert ask(quick, "GET", "/")[0] == 200
    for client in slow:
        client.close()


def stream(web, cookie: str, window: int | None = None) -> socket.socket:
    client = socket.socket()
    if window is not None:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, window)
    client.connect(("127.0.0.1", int(web.url.rstrip("/").rsplit(":", 1)[1])))
    client.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode())
    return client


def first_event(client: socket.socket) -> None:
    got = b""
    while b"data: " not in got:
        got += client.recv(65536)


def test_beyond_the_cap_with_every_place_serving_a_client_gets_503(quick):
    cookie = joined(quick)
    held = [stream(quick, cookie) for _ in range(guard.MAX_CONNECTIONS)]
    for client in held:                              # each stream's first event: it serves
        first_event(client)
    for _ in range(5):
        assert ask(quick, "GET", "/")[0] == 503
    for client in held:
        client.close()
    assert ask(quick, "GET", "/")[0] in (200, 503)   # places come back as streams find them gone
    for _ in range(200):                             # bounded: each keepalive finds one gone
        if ask(quick, "GET", "/")[0] == 200:
            break
    assert ask(quick, "GET", "/")[0] == 200


RESETS = 10_000
# The page listens with a queue of 128. Resets made faster than its thread takes them (a busy
# machine) would fill it, and the kernel drops a connection's SYN past it, retried a second
# later: a request answered every PACE resets keeps the queue short, and the storm's wall time
# its own (46 s of a loaded run, 4 s alone, before).
PACE = 100


# SO_LINGER of 0: close sends a reset; SO_SNDTIMEO bounds the connect (Linux) as a timeout
# would, without the non-blocking connect and poll a socket timeout makes of it
RESET = struct.pack("ii", 1, 0)
BOUND = struct.pack("qq", 10, 0)             # 10 s: a timeval of 64-bit fields


def reset(web) -> None:
    """Connect and go away with a TCP reset (no FIN): a bare blocking socket, six system
    calls, as a storm of them leaves the server all the processor there is."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, BOUND)
    client.connect(("127.0.0.1", port_of(web)))
    client.sendall(b"GET /api/scr")
    client.close()


def test_ten_thousand_reset_connections_write_no_traceback(quick, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    for n in range(1, RESETS + 1):
        reset(quick)
        if n % PACE == 0:       # answered: every reset before it is taken (the queue is FIFO)
            assert ask(quick, "GET", "/")[0] == 200
    assert ask(quick, "GET", "/")[0] == 200
    assert not [r for r in caplog.records if r.exc_info or r.exc_text]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "Traceback" not in capfd.readouterr().err


def test_stream_readers_that_never_read_are_dropped_and_the_table_plays_on(quick, monkeypatch):
    """Streams with a tiny window that never read while the screen changes: each is dropped
    once its buffers are full (the idle time made nothing, so no clock is waited on: the
    frames fill the buffers); presses still answer, the page still serves."""
    monkeypatch.setattr(guard, "STALL_S", 0.0)
    cookie = joined(quick)
    sleepers = [stream(quick, cookie, window=4096) for _ in range(guard.MAX_CONNECTIONS - 2)]
    for client in sleepers:                          # each reads its first event, then no more
        first_event(client)
    for n in range(2000):                            # bounded: some 60 frames fill a buffer
        if not quick.guard.open:
            break
        # pressed from the page: its frame goes to the streams at once, not at the next look
        assert ask(quick, "POST", "/api/input", {"line": "press down" if n % 2 else "press up"},
                   cookie)[0] == 200
        # a request answered: the page's loop ran, its streams sent the frame (or were dropped)
        assert ask(quick, "GET", "/style.css")[0] == 200
    assert not quick.guard.open                      # every sleeper was dropped
    for client in sleepers:
        client.close()
    assert ask(quick, "GET", "/api/screen", cookie=cookie)[0] == 200


def test_two_hundred_idle_streams_leave_the_page_answering(tmp_path, monkeypatch):
    monkeypatch.setattr(watch, "KEEPALIVE_S", 0.2)
    table, web = serve(tmp_path)
    try:
        cookie = joined(web)
        idle = [stream(web, cookie) for _ in range(200)]
        for client in idle:
            first_event(client)
        for _ in range(5):
            assert ask(web, "POST", "/api/input", {"line": "press down"}, cookie)[0] == 200
        assert ask(web, "GET", "/api/screen", cookie=cookie)[0] == 200
        for client in idle:
            client.close()
    finally:
        web.close()
