"""The dashboard under a storm, measured: its memory, and whether real requests still answer.

Usage: python tools/fleet_storm.py [--json]

On a local Mosquitto, 256 tables each send a state of about 28 kB;
the real `tabletop dashboard` (its own process) meets 30 live readers that never read, 8
readers of /state.json at once, 32 clients trickling their headers and 10,000 connections
closed or reset, while real requests are made. Needs mosquitto and paho-mqtt.
"""
from __future__ import annotations

import argparse
import json
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet_bench import Broker, dashboard, memory_mb, state  # noqa: E402

from device.config import FleetConfig  # noqa: E402
from device.fleet.link import Link  # noqa: E402
from device.fleet.topics import encode, table_topic  # noqa: E402


def hostile_state(table: str) -> bytes:
    """A state of about 28 kB, its texts as long as they go."""
    long = "W" * 1500
    body = state(table, 1)
    body["faults"] = {f"part{n}": long for n in range(18)}
    return encode(body)


def ask(port: int, path: str = "/state.json") -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        client.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        got = b""
        while chunk := client.recv(1 << 16):
            got += chunk
    return got


def storm(folder: Path) -> dict:
    """256 tables of hostile states, 30 live readers that never read, 32 slow clients, 8
    readers of /state.json at once and 10,000 connections reset: the dashboard's memory, and
    whether real requests still answer."""
    broker = Broker(folder)
    broker.start()
    settings = FleetConfig(enabled=True, host="127.0.0.1", port=broker.port)
    hostile = Link(settings, "bench-hostile").start()
    for n in range(256):
        hostile.publish(table_topic(f"h{n}", "state"), hostile_state(f"h{n}"), retain=True)
    hostile.close(flush_s=60)
    process, port = dashboard(folder, broker.port)
    held: list[socket.socket] = []
    try:
        for _ in range(30):
            reader = socket.socket()
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.connect(("127.0.0.1", port))
            reader.sendall(b"GET /events HTTP/1.0\r\n\r\n")
            held.append(reader)
        for _ in range(600):                          # the retained states coming in
            board = json.loads(ask(port).partition(b"\r\n\r\n")[2])
            if len(board["tables"]) == 256:
                break
            time.sleep(0.1)
        together = [threading.Thread(target=ask, args=(port,)) for _ in range(8)]
        for thread in together:
            thread.start()
        for thread in together:
            thread.join()
        for _ in range(32):
            slow = socket.create_connection(("127.0.0.1", port))
            slow.sendall(b"GET /state.json HTTP/1.1\r\nX-a: ")
            held.append(slow)
        answered = [ask(port)[:12] for _ in range(20)]
        linger = struct.pack("ii", 1, 0)
        for n in range(10_000):
            client = socket.create_connection(("127.0.0.1", port), timeout=30)
            if n % 2:
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            client.close()
        answered += [ask(port)[:12] for _ in range(20)]
        rss, peak = memory_mb(process.pid)
        return {"tables": len(board["tables"]), "board_kb": round(len(json.dumps(board)) / 1024),
                "real_requests_answered_200": sum(a == b"HTTP/1.0 200" for a in answered),
                "real_requests": len(answered), "dashboard_rss_mb": round(rss, 1),
                "dashboard_peak_rss_mb": round(peak, 1)}
    finally:
        for client in held:
            client.close()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        broker.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fleet-storm-") as scratch:
        print(json.dumps(storm(Path(scratch)), indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
