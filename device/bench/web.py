"""The table's page in the bench: the peak memory of a table with its page serving, and what
50 open streams of the page cost the game loop's tap-to-frame.

Each figure comes from a fresh process (this module run as a script), which plays the bench's
longest scripted game through the simulator's lines, tap by tap timed from the line to the
frame published: once without the page, once with it serving and no phone, once with 50 phones
following its stream (read as fast as they
come, in a process of their own, as phones are). The peak is the table process's VmHWM once the
game is over.
"""
from __future__ import annotations

import json
import os
import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path

MODULE = "device.bench.web"     # run as a script: its own name is __main__ then
STREAMS = 50
# Between two taps a table has at least a hand's move (the simulator counts 1.6 s): here a
# short real pause after each, the same in every run, in which the page sends its streams the
# new frame.
HANDS_S = 0.01
TIMEOUT_S = 300.0


RUNS = {"off": (False, 0), "on": (True, 0), f"streams_{STREAMS}": (True, STREAMS)}


def page_figures(directory: Path, game: str, players: list[str], lines: list[str],
                 runs: tuple[str, ...] = tuple(RUNS)) -> dict:
    """{"off"|"on"|"streams_50": {"peak_rss_mb", "tap_s"}} for the scripted game."""
    figures = {}
    for name in runs:
        page, streams = RUNS[name]
        order = {"state_dir": str(directory / name), "game": game, "players": players,
                 "lines": lines, "page": page, "streams": streams}
        done = subprocess.run([sys.executable, "-m", MODULE], input=json.dumps(order),
                              capture_output=True, text=True, timeout=TIMEOUT_S,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        if done.returncode != 0:
            raise RuntimeError(f"bench: the page's table ({name}) failed: {done.stderr[-500:]}")
        figures[name] = json.loads(done.stdout.splitlines()[-1])
    return figures


def play(order: dict) -> dict:
    """One table, in this process: the game's lines, each tap timed; the peak memory."""
    import argparse

    from device.app import Companion
    from device.assembly import open_registry, start_from_flags
    from device.loop import Frames
    from device.sim.clock import VirtualClock
    from device.sim.lines import SimReaderField
    from device.sim.play import run_sim
    from device.storage.store import GameStore

    state_dir = Path(order["state_dir"])
    clock = VirtualClock(wall="2024-05-04T20:00:00+02:00")
    registry = open_registry(state_dir, True)
    app = Companion(registry=registry, store=GameStore(state_dir, clock=clock), clock=clock)
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
        if not page.ready.wait(60) or page.url is None:
            raise RuntimeError("the page did not start")
        phones = follow(page, order["streams"])
    taps = []
    for line in order["lines"]:
        start = time.perf_counter()
        run_sim(app, [line], clock, frames, field, lambda text: None)
        if line.startswith("tap "):
            taps.append(time.perf_counter() - start)
            time.sleep(HANDS_S)
    app.store.close()
    peak = int(next(line for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmHWM:")).split()[1])
    if phones is not None:
        phones.kill()
        phones.wait()
    if page is not None:
        page.close()
    return {"peak_rss_mb": round(peak / 1024, 1), "tap_s": taps}


def follow(page, count: int) -> subprocess.Popen | None:
    """`count` phones joined and following the page's stream, in a process of their own (as
    phones are: their reading costs the table nothing), once each has its first view."""
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
    """The phones' process: `count` streams, each read as fast as it comes, until killed."""
    clients, reading = [], selectors.DefaultSelector()
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode())
        got = b""
        while b"data: " not in got:
            got += client.recv(65536)
        client.setblocking(False)
        reading.register(client, selectors.EVENT_READ)
        clients.append(client)
    print("following", flush=True)
    while reading.get_map():
        for key, _ in reading.select():
            stream: socket.socket = key.fileobj      # type: ignore[assignment]
            try:
                if not stream.recv(65536):
                    reading.unregister(stream)
            except OSError:
                reading.unregister(stream)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--phones"]:
        phones(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        print(json.dumps(play(json.loads(sys.stdin.read()))))
