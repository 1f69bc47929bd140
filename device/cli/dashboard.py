"""`tabletop dashboard`: serve the café's live page of every table (device.fleet.dashboard)
and the staff's back office under /admin (device.fleet.backoffice);
`tabletop dashboard password` sets the staff's password, read from stdin (only its hash is kept)."""
from __future__ import annotations

import argparse
import signal
import socket
import sqlite3
import sys
import threading
from pathlib import Path

from device.assembly import state_dir_for
from device.config import ConfigFileError, config_path, load_config
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from .config import refusal
from .refusal import refuse, unwritable

TYPE_CHECKING = False               # as typing's
if TYPE_CHECKING:
    from device.fleet.backoffice.history import History
    from device.fleet.dashboard.board import Board


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser("dashboard", help="cli.help.dashboard")
    parser.add_argument("--config", type=Path, help="cli.help.fleet_config")
    parser.add_argument("--host", help="cli.help.dashboard_host")
    parser.add_argument("--port", type=int, help="cli.help.dashboard_port")
    parser.add_argument("--token", help="cli.help.dashboard_token")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one
    actions = parser.add_subparsers(dest="dashboard_command")
    password = actions.add_parser("password", help="cli.help.dashboard_password")
    password.add_argument("--state-dir", type=Path, metavar="DIR", help="cli.help.state_dir")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "dashboard_command", None) == "password":
        return set_password(args)
    # the dashboard's server and the café's link: imported when it runs, not when a parser of
    # every command is built (`tabletop completion`, a bad option)
    from device.fleet.backoffice.history import History, HistoryError
    from device.fleet.dashboard.app import DashboardServer
    from device.fleet.dashboard.board import Board
    from device.fleet.dashboard.feed import subscribe
    from device.fleet.envelope import Trust
    from device.fleet.freshness import Freshness
    from device.fleet.link import FleetUnavailable
    try:
        config = load_config(config_path(args.config))
        settings, state_dir = config.fleet, state_dir_for(None, config)
        # with the café's admin key, only the tables it enrols count
        history = History.at(state_dir)        # every finished game, each once, restarts included
        board = Board(trust=Trust.of(settings.admin_key, Freshness.at(state_dir)), counted=history)
        server = DashboardServer(board, args.host or settings.dashboard_host,
                                 args.port or settings.dashboard_port,
                                 args.token or settings.dashboard_token,
                                 names=tuple(n.strip() for n in
                                             (settings.dashboard_names or "").split(",") if n.strip()),
                                 language=settings.dashboard_language,
                                 finished=settings.dashboard_finished,
                                 backoffice=back_office(state_dir, history, settings, board))
        # one persistent session per dashboard: two on one host must not take turns
        port = server.server_address[1]
        link = subscribe(settings, board, f"tabletop-dashboard-{socket.gethostname()}-{port}")
    except ConfigFileError as exc:
        print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
        return 2
    except (ValueError, OSError, FleetUnavailable, HistoryError, sqlite3.Error) as exc:
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


def back_office(state_dir: Path, history: History, settings, board: Board):
    """The staff's pages under /admin, over the dashboard's state dir and history; what they
    change goes to the tables through the config's broker."""
    from device.fleet.backoffice.api import Api
    from device.fleet.backoffice.cards import card_desk, card_routes
    from device.fleet.backoffice.office import BackOffice
    from device.fleet.backoffice.sharing import Sharing, shared
    sharing = Sharing(settings, state_dir)
    desk, _ = card_desk(settings, state_dir)         # its link, once started, lives as long as it
    return BackOffice(state_dir, api=lambda office: [
        *Api(office, history, sharing=sharing, board=board).routes(),
        *card_routes(office, desk, lambda: shared(sharing.roster))])


def set_password(args: argparse.Namespace) -> int:
    """The staff's new password, one line on stdin; exit 2 when refused (nothing changed)."""
    from device.fleet.backoffice.password import PasswordRefused, store
    state_dir = args.state_dir
    if state_dir is None:
        try:
            state_dir = state_dir_for(None, load_config(config_path(args.config)))
        except ConfigFileError as exc:
            print(refusal(exc, config_path(args.config), args.language), file=sys.stderr)
            return 2
    if sys.stdin.isatty():
        print(say(args.language, "cli.dashboard.type_password"), file=sys.stderr, flush=True)
    try:
        path = store(state_dir, sys.stdin.readline(4096))
    except PasswordRefused as exc:
        return refuse(args.language, exc)
    except OSError as exc:
        return unwritable(args.language, state_dir, exc)
    print(say(args.language, "cli.dashboard.password_set", path=path))
    return 0
