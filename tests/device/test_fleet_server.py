"""The dashboard's web server under misuse, on loopback: idle, half-sent and trickled
requests, a flood of connections and of resets, readers that never read, a foreign Host
header. Bounded loops only; the deadlines are made small so that no test waits long."""
from __future__ import annotations

import json
import logging
import select
import socket
import struct

import pytest

from device.fleet.dashboard import app as web
from device.fleet.dashboard import snapshots
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.topics import encode, table_topic
from tests.device.test_fleet_dashboard import CLOCK


@pytest.fixture
def quick(monkeypatch):
    """A server that gives up on a silent client after half a second, four clients at most;
    a reader's keepalive (which finds a reader gone) each 0.1 s."""
    monkeypatch.setattr(web, "IDLE_S", 0.5)
    monkeypatch.setattr(web, "KEEPALIVE_S", 0.1)
    monkeypatch.setattr(web, "MAX_CONNECTIONS", 4)
    monkeypatch.setattr(web, "MAX_STREAMS", 4)
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
    assert ask(quick).startswith(b"HTTP/1.1 200")


def reader(server, token: str = "tide-3") -> socket.socket:
    """A live reader of /events, its first board read: it holds a slot."""
    client = connect(server)
    client.sendall(f"GET /events HTTP/1.0\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    got = b""
    while b"\r\n\r\ndata: " not in got or not got.endswith(b"\n\n"):
        got += client.recv(4096)
    return client


def test_beyond_the_cap_a_client_gets_503_and_the_rest_keep_working(quick):
    held = [slow_client(quick) for _ in range(web.MAX_CONNECTIONS)]  # each holds a request slot
    for client in held:
        client.sendall(b"GET /state.json HTTP/1.0\r\n")            # headers never finished
    assert ask(quick).startswith(b"HTTP/1.1 200")                   # takes the oldest's place
    for client in held:
        client.close()
    assert quick.wait_connections(0, 30)
    assert ask(quick).startswith(b"HTTP/1.1 200")


def slow_client(server) -> socket.socket:
    return connect(server)


def test_live_readers_have_slots_of_their_own_and_free_them_when_they_close(quick):
    """As many live readers as there are stream slots, reading or not: /state.json still
    answers; one reader more is turned away; closed, each frees its slot at once (no
    keepalive needed: the server watches the sockets)."""
    web.KEEPALIVE_S = 3600.0                               # only a close can free a slot now
    held = [reader(quick) for _ in range(web.MAX_STREAMS)]
    for _ in range(2 * web.MAX_CONNECTIONS):
        assert ask(quick).startswith(b"HTTP/1.1 200")
    assert ask(quick, "/events").startswith(b"HTTP/1.1 503")
    for client in held:
        client.close()
    assert quick.wait_connections(0, 30)
    held = [reader(quick) for _ in range(web.MAX_STREAMS)]   # every slot is back
    for client in held:
        client.close()
    assert quick.wait_connections(0, 30)


def test_readers_opened_and_closed_at_once_never_make_the_data_busy(quick):
    """32 GET /events opened and closed within a moment (here the stream slots, times eight):
    /state.json answers 200 throughout, and the slots are free again at once."""
    web.KEEPALIVE_S = 3600.0
    for _ in range(8):
        for _ in range(web.MAX_STREAMS):
            with connect(quick) as client:
                client.sendall(b"GET /events HTTP/1.0\r\nAuthorization: Bearer tide-3\r\n\r\n")
        assert ask(quick).startswith(b"HTTP/1.1 200")
    assert quick.wait_connections(0, 30)


def test_exposed_it_answers_only_to_its_names(quick):
    quick.names, quick.exposed = {"cafe-screen.local"}, True            # as if on the LAN
    assert ask(quick, host="cafe-screen.local:8080").startswith(b"HTTP/1.1 200")
    assert ask(quick, host="evil.example").startswith(b"HTTP/1.1 421")
    assert ask(quick, host="cafe-screen.local", token="tide-2").startswith(b"HTTP/1.1 403")


def test_many_requests_leave_memory_bounded(quick):
    for n in range(300):                                             # bounded: more than the cap
        quick.board.receive(table_topic(f"x{n}", "online"), b"true")
    assert len(quick.board.view()["tables"]) == 256
    for _ in range(50):
        assert ask(quick).startswith(b"HTTP/1.1 200")


def test_slow_clients_holding_every_slot_do_not_keep_real_requests_out(monkeypatch):
    """32 connections trickling their headers: each real request takes the slot of the
    oldest of them, and answers."""
    board = Board()
    board.receive(table_topic("t1", "online"), b"true")
    server = DashboardServer(board, "127.0.0.1", 0, token="tide-3").start()
    slow = [connect(server) for _ in range(web.MAX_CONNECTIONS)]
    for client in slow:
        client.sendall(b"GET /state.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
    for _ in range(10):
        assert ask(server).startswith(b"HTTP/1.1 200")
    for client in slow[10:]:                         # the ten oldest gave their places up
        client.sendall(b"b")                         # still trickling: later ones still wait
    assert ask(server).startswith(b"HTTP/1.1 200")
    server.close()
    for client in slow:
        client.close()


def test_a_client_trickling_its_headers_is_closed_at_the_header_deadline(quick, monkeypatch):
    monkeypatch.setattr(web, "HEADER_S", 0.3)
    with connect(quick) as client:
        client.sendall(b"GET /state.json HTTP/1.1\r\n")
        for _ in range(2000):                        # bounded: 100 s, were it never closed
            readable, _, _ = select.select([client], [], [], 0.05)
            if readable:
                break
            try:
                client.sendall(b"X")                 # a byte each 50 ms: no idle timeout
            except (BrokenPipeError, ConnectionResetError):
                break                                # closed between the look and the byte
        else:
            pytest.fail("a trickling client was never closed")
        try:
            said = client.recv(100)
        except ConnectionResetError:                 # a byte came in as it closed: a reset
            said = b""
        assert said == b""                           # closed by the server, answered nothing
    assert ask(quick).startswith(b"HTTP/1.1 200")


RESETS = 10_000
# Resets made faster than the server takes them (a busy machine) fill its listen queue, and the
# kernel drops a connection's SYN past it, retried a second later: a request answered every
# PACE resets keeps the queue short, and the storm's wall time its own.
PACE = 100


# SO_LINGER of 0: close sends a reset; SO_SNDTIMEO bounds the connect (Linux) as a timeout
# would, without the non-blocking connect and poll a socket timeout makes of it
RESET = struct.pack("ii", 1, 0)
BOUND = struct.pack("qq", 10, 0)             # 10 s: a timeval of 64-bit fields


def reset(server) -> None:
    """Connect and go away with a TCP reset (no FIN): a bare blocking socket, six system
    calls, as a storm of them leaves the server all the processor there is."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, BOUND)
    client.connect(server.server_address[:2])
    client.sendall(b"GET /state")
    client.close()


def test_ten_thousand_reset_connections_write_no_traceback(quick, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    for n in range(1, RESETS + 1):
        reset(quick)
        if n % PACE == 0:       # answered: every reset before it is taken (the queue is FIFO)
            assert ask(quick).startswith(b"HTTP/1.1 200")
    assert ask(quick).startswith(b"HTTP/1.1 200")
    assert not [r for r in caplog.records if r.exc_info or r.exc_text]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING
                and "turned away" not in r.getMessage()]
    assert "Traceback" not in capfd.readouterr().err


def test_readers_share_one_serialized_board_per_version(quick, monkeypatch):
    monkeypatch.setattr(snapshots, "FRESH_S", 3600.0)          # however slow the machine
    made = quick.snapshots.made
    bodies = {ask(quick).partition(b"\r\n\r\n")[2] for _ in range(8)}
    assert len(bodies) == 1 and quick.snapshots.made <= made + 1
    assert json.loads(bodies.pop())["counts"]["online"] == 1


def test_readers_that_never_read_are_dropped_and_the_rest_keep_answering(quick):
    """Readers with a tiny receive window that never read, while hostile tables fill the
    board: each is dropped once a send waits past the idle timeout; the server answers on."""
    sleepers = []
    for _ in range(web.MAX_CONNECTIONS - 1):
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(quick.server_address[:2])
        client.sendall(b"GET /events HTTP/1.0\r\nAuthorization: Bearer tide-3\r\n\r\n")
        sleepers.append(client)
    big = "x" * 400                                   # the longest text a table may send
    for n in range(200):                              # boards of a few hundred kB each
        faults = {f"f{i}": big for i in range(12)}
        quick.board.receive(table_topic(f"t{n}", "state"), encode(
            {"table": f"t{n}", "at": CLOCK, "activity": "idle", "faults": faults, "game": None}))
    assert len(ask(quick)) > 200_000
    assert quick.wait_connections(0, 30)              # each was dropped
    for client in sleepers:
        client.close()
    assert ask(quick).startswith(b"HTTP/1.1 200")
