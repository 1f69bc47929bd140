"""`tabletop dashboard`: serve the café's live page of every table (device.fleet.dashboard)."""
from __future__ import annotations

import argparse
import signal
import socket
import sys
import threading
from pathlib import Path

from device.config import ConfigFileError, config_path, load_config
from device.fleet.dashboard.app import DashboardServer
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.counted import CountedGames
from device.fleet.dashboard.feed import subscribe
from device.fleet.envelope import Trust
from device.fleet.freshness import Freshness
from device.fleet.link import FleetUnavailable
from device.table import state_dir_for
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .config import refusal


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("dashboard", help="cli.help.dashboard")
    parser.add_argument("--config", type=Path, help="cli.help.fleet_config")
    parser.add_argument("--host", help="cli.help.dashboard_host")
    parser.add_argument("--port", type=int, help="cli.help.dashboard_port")
    parser.add_argument("--token", help="cli.help.dashboard_token")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(config_path(args.config))
        settings, state_dir = config.fleet, state_dir_for(None, config)
        # with the café's admin key, only the tables it enrols count
        board = Board(trust=Trust.of(settings.admin_key, Freshness.at(state_dir)),
                      counted=CountedGames.at(state_dir))
        server = DashboardServer(board, args.host or settings.dashboard_host,
                                 args.port or settings.dashboard_port,
                                 args.token or settings.dashboard_token,
                                 names=tuple(n.strip() for n in
                                             (settings.dashboard_names or "").split(",") if n.strip()),
                                 language=settings.dashboard_language,
                                 finished=settings.dashboard_finished)
        # one persistent session per dashboard: two on one host must not take turns
        port = server.server_address[1]
        link = subscribe(settings, board, f"tabletop-dashboard-{socket.gethostname()}-{port}")
    except ConfigFileError as exc:
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (ValueError, OSError, FleetUnavailable) as exc:
        print(say(args.language, "cli.dashboard.problem", problem=exc), file=sys.stderr)
        return 2
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    server.start()
    print(say(args.language, "cli.dashboard.on", url=server.url, broker=link.where), flush=True)
    stop.wait()
    server.close()
    link.close(flush_s=0)
    return 0
