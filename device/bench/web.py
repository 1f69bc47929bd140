"""The table's page in the bench: the peak memory of a table with its page serving, and what
the page and 50 phones on its stream cost the game loop's tap-to-frame.

Three tables play the bench's longest scripted game through the simulator's lines, each a
fresh process (this module run as a script): one without the page, one with it serving and no
phone, one with 50 phones following its stream and one phone that stopped reading (the
phones in a process of their own, as phones are elsewhere). They play in lockstep, a line
each in turn, the order turning at each line, so that whatever else the machine does weighs
on the three alike: the figures compare like with like. Between two of its lines a table
waits on the others', and before a tap HANDS_S more: the hand's move to the reader, which the
simulator counts 1.6 s, in which the frames before it reach the phones. A tap is timed from
its line to its frame published, the page's share of the loop's work included, and the
journal's appends within it apart. A table's peak is its VmHWM once the game is over.
"""
from __future__ import annotations

import json
import os
import select
import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path

MODULE = "device.bench.web"     # run as a script: its own name is __main__ then
STREAMS = 50
STALLED = 1                    # phones that stop reading their stream, beside the 50
READ_S = 0.02                  # the phones read what came at most this often: cheap for the machine
READY_S = 60.0
HANDS_S = 0.05                 # before each tap: longer than the page's look for a new frame


RUNS = {"off": (False, 0), "on": (True, 0), f"streams_{STREAMS}": (True, STREAMS)}


def page_figures(directory: Path, game: str, players: list[str], lines: list[str],
                 runs: tuple[str, ...] = tuple(RUNS)) -> dict:
    """{"off"|"on"|"streams_50": {"peak_rss_mb", "tap_s", "tap_journal_s"}} for the scripted
    game, its tables playing in lockstep."""
    directory.mkdir(parents=True, exist_ok=True)
    tables: dict[str, subprocess.Popen] = {}
    try:
        for name in runs:
            page, streams = RUNS[name]
            order = {"state_dir": str(directory / name), "game": game, "players": players,
                     "lines": lines, "page": page, "streams": streams}
            tables[name] = table = subprocess.Popen(
                [sys.executable, "-m", MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=(directory / f"{name}.err").open("w"), text=True,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
            _say(table, json.dumps(order))
        for name, table in tables.items():
            _expect(directory, name, table, "ready")
        turn = list(tables.items())
        for index, line in enumerate(lines):
            if line.startswith("tap "):
                time.sleep(HANDS_S)
            shift = index % len(turn)
            for name, table in turn[shift:] + turn[:shift]:
                _say(table, "next")
                _expect(directory, name, table, "done")
        figures = {}
        for name, table in tables.items():
            assert table.stdin is not None and table.stdout is not None
            table.stdin.close()
            out = table.stdout.read()        # what its reader holds past the last "done" too
            if table.wait(READY_S) != 0:
                raise RuntimeError(f"bench: the page's table ({name}) failed: {_errors(directory, name)}")
            figures[name] = json.loads(out.splitlines()[-1])
        return figures
    finally:
        for table in tables.values():
            if table.poll() is None:
                table.kill()
                table.wait()


def _say(table: subprocess.Popen, line: str) -> None:
    assert table.stdin is not None
    table.stdin.write(line + "\n")
    table.stdin.flush()


def _expect(directory: Path, name: str, table: subprocess.Popen, word: str) -> None:
    """The table's answer to what it was told: `word`, within READY_S (it says one line for
    each, so nothing waits in the reader's buffer unseen by the select)."""
    assert table.stdout is not None
    answered = select.select([table.stdout], [], [], READY_S)[0]
    if not answered or table.stdout.readline().strip() != word:
        table.kill()
        table.wait()
        raise RuntimeError(f"bench: the page's table ({name}) failed: {_errors(directory, name)}")


def _errors(directory: Path, name: str) -> str:
    return (directory / f"{name}.err").read_text()[-500:]


def play(order: dict, orders, told) -> dict:
    """One table, in this process: ready once it (and its page, and its phones) are, then a
    line of the game at each order, each tap timed; the peak memory."""
    import argparse

    from device.app import Companion
    from device.assembly import open_registry, start_from_flags
    from device.bench.games import TimedStore
    from device.loop import Frames
    from device.sim.clock import VirtualClock
    from device.sim.lines import SimReaderField
    from device.sim.play import run_sim

    state_dir = Path(order["state_dir"])
    clock = VirtualClock(wall="2024-05-04T20:00:00+02:00")
    registry = open_registry(state_dir, True)
    store = TimedStore(state_dir, clock)
    app = Companion(registry=registry, store=store, clock=clock)
    problem = start_from_flags(app, argparse.Namespace(
        game=order["game"], players=",".join(order["players"]), first=None, option=[]))
    if problem:
        raise RuntimeError(problem)
    frames, field = Frames(), SimReaderField(registry.sim_uid, clock=clock)
    page = None
    if order["page"]:
        from device.web.serving import WebPage
        page = WebPage(app, "127.0.0.1", 0, None, clock=clock)
        page.simulated(iter(()), clock, frames, field)
    frames.update(app)
    phones = None
    if page is not None:
        if not page.ready.wait(READY_S) or page.url is None:
            raise RuntimeError("the page did not start")
        phones = follow(page, order["streams"])
    told("ready")
    taps, journal = [], []
    for line in order["lines"]:
        if orders.readline().strip() != "next":
            raise RuntimeError("the bench stopped before the game's end")
        appends = len(store.append_s)
        start = time.perf_counter()
        run_sim(app, [line], clock, frames, field, lambda text: None)
        if line.startswith("tap "):
            taps.append(time.perf_counter() - start)
            journal.append(sum(store.append_s[appends:]))
        told("done")
    app.store.close()
    peak = int(next(line for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmHWM:")).split()[1])
    if phones is not None:
        phones.kill()
        phones.wait()
    if page is not None:
        page.close()
    return {"peak_rss_mb": round(peak / 1024, 1), "tap_s": taps, "tap_journal_s": journal}


def follow(page, count: int) -> subprocess.Popen | None:
    """`count` phones joined and following the page's stream and STALLED more that stop
    reading it, in a process of their own (as phones are: their reading costs the table
    nothing), once each has its first view."""
    if count == 0:
        return None
    port = int(page.url.rstrip("/").rsplit(":", 1)[1])
    body = json.dumps({"code": page.desk.joining.code}).encode()
    with socket.create_connection(("127.0.0.1", port)) as joining:
        joining.sendall(b"POST /api/join HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                        b"Content-Type: application/json\r\nContent-Length: "
                        + str(len(body)).encode() + b"\r\n\r\n" + body)
        reply = b""
        while chunk := joining.recv(65536):
            reply += chunk
    cookie = next(line.split(b":", 1)[1].split(b";")[0].strip()
                  for line in reply.split(b"\r\n") if line.lower().startswith(b"set-cookie:"))
    phones = subprocess.Popen([sys.executable, "-m", MODULE, "--phones", str(port),
                               cookie.decode(), str(count)], stdout=subprocess.PIPE, text=True)
    assert phones.stdout is not None
    if phones.stdout.readline().strip() != "following":
        raise RuntimeError("the phones did not follow the page")
    return phones


def phones(port: int, cookie: str, count: int) -> None:
    """The phones' process: `count` streams, each read whole at most every READ_S, and
    STALLED that read nothing past their first view, until killed."""
    clients, reading = [], selectors.DefaultSelector()
    for n in range(count + STALLED):
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode())
        got = b""
        while b"data: " not in got:
            got += client.recv(65536)
        clients.append(client)                   # a stalled phone's stream is held, unread
        if n < count:
            client.setblocking(False)
            reading.register(client, selectors.EVENT_READ)
    print("following", flush=True)
    while reading.get_map():
        for key, _ in reading.select():
            stream: socket.socket = key.fileobj      # type: ignore[assignment]
            try:
                if not stream.recv(1 << 20):
                    reading.unregister(stream)
            except OSError:
                reading.unregister(stream)
        time.sleep(READ_S)


def told(word: str) -> None:
    print(word, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--phones"]:
        phones(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        print(json.dumps(play(json.loads(sys.stdin.readline()), sys.stdin, told)))
