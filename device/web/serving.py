"""The table's page running beside the game loop: its own thread, its own asyncio loop.

Nothing of the web is imported until the page starts (`start`, once the first frame is out),
so the table's start-up and the command line pay nothing for it. The address: the
configured host (on a Pi every interface, the simulator 127.0.0.1) and port, or the next
free port above it; the log says which, and `web.json` in the state dir tells `tabletop
status` while the table runs. The join code is never logged.
"""
from __future__ import annotations

import errno
import logging
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .address import forget, tell
from .card import JoinCard, matrix
from .desk import Desk
from .joining import Joining

log = logging.getLogger(__name__)

PORTS_TRIED = 20              # the configured port and the next ones, when taken
ANY = ("0.0.0.0", "::", "")


def bind(host: str, port: int, tries: int = PORTS_TRIED) -> socket.socket:
    """A listening socket on `port`, else the next free one (port 0: any the system gives)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    last: OSError | None = None
    for candidate in range(port, port + tries) if port else (0,):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE:
                raise
            last = exc
            continue
        sock.listen(128)
        sock.setblocking(False)
        return sock
    raise last or OSError(errno.EADDRINUSE, "no free port")


def reachable(host: str) -> str:
    """The address a phone on the table's network reaches it by: for every interface, the
    one the table's own traffic leaves by (no packet is sent to find it)."""
    if host not in ANY:
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))        # TEST-NET: routing only, nothing goes out
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class WebPage:
    """The page's server on its thread; `desk` is what it serves."""

    def __init__(self, app, host: str, port: int, state_dir: Path | None = None,
                 clock=time.monotonic) -> None:
        self.desk = Desk(app, Joining(clock))
        self.host, self.port, self.state_dir = host, port, state_dir
        self.url: str | None = None
        self.ready = threading.Event()          # serving (or given up): `url` says which
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.card = JoinCard()
        self._redraw: Callable[[], None] = lambda: None

    def simulated(self, lines, clock, frames, field):
        """Under the simulator: the page's lines carried out as typed ones, in turn with them
        (the typed lines, returned, hold the lock while each is handled)."""
        from .lines import in_turn, simulated, under_lock
        lock = threading.Lock()
        self._hook(frames)
        self.desk.on_loop = under_lock(self.desk.app, frames, lock)
        self.desk.line = simulated(self.desk.app, clock, frames, field)

        def redraw() -> None:
            with lock:
                frames.last = None
                frames.update(self.desk.app)
        self._redraw = redraw
        return in_turn(lines, lock)

    def on_hardware(self, put, frames) -> None:
        """On the table's hardware: the page's lines go onto the loop's queue (`put`)."""
        from device.loop import Errand

        from .lines import on_hardware, on_queue
        self._hook(frames)
        self.desk.on_loop = on_queue(put)
        self.desk.line = on_hardware(self.desk.app)
        self._redraw = lambda: put(Errand(lambda: setattr(frames, "last", None)))

    def _hook(self, frames) -> None:
        """Each new frame to the desk too, with the join card on it where it goes; the first
        one starts the page."""
        shown = frames.on_frame
        app = self.desk.app

        def carded(image):
            return self.card.over(image, app, self.desk.joining.code)

        def on_frame(image, screen) -> None:
            image = carded(image)                # the terminal's picture is the panel's too
            if shown is not None:
                shown(image, screen)
            self.desk.publish(image, screen)
            self.start()
        frames.on_frame = on_frame
        frames.displays = tuple(Carded(display, carded) for display in frames.displays)

    def start(self) -> WebPage:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="web", daemon=True)
            self._thread.start()
        return self

    def join_url(self) -> str | None:
        """The address with the code, as the QR code holds it: opened, the page joins."""
        return f"{self.url}#code={self.desk.joining.code}" if self.url else None

    def _run(self) -> None:
        import asyncio
        if self._stop.is_set():                  # the table stopped before its page started
            return
        try:
            sock = bind(self.host, self.port)
        except OSError as exc:
            log.error("the table's page is off: %s:%d: %s", self.host, self.port,
                      exc.strerror or exc)
            self.ready.set()
            return
        try:
            asyncio.run(self._serve(sock))
        except Exception as exc:                 # noqa: BLE001  (the table plays on without it)
            log.error("the table's page stopped: %s: %s", type(exc).__name__, exc)
        finally:
            sock.close()
            self._forget()
            self.ready.set()

    async def _serve(self, sock: socket.socket) -> None:
        import asyncio

        from .guard import Guard, GuardedH11
        from .lean import bare
        with bare("uvicorn") as package:       # the server's parts, not its command line
            from uvicorn.config import Config
            from uvicorn.server import ServerState
            # Config.load imports the lifespan by name, and it takes Config from the package
            vars(package)["Config"] = Config
            import uvicorn.lifespan.off  # noqa: F401
        from .server import TablePage
        from .watch import Watch
        if self._stop.is_set():                  # the table stopped while they were loading
            return
        loop = asyncio.get_running_loop()
        watch = Watch(self.desk)
        page = TablePage(self.desk, watch)
        config = Config(page.app, log_config=None, log_level="error", access_log=False,
                        proxy_headers=False, server_header=False, date_header=False,
                        lifespan="off", http="h11", ws="none")
        config.load()
        state, guard = ServerState(), Guard()
        server = await loop.create_server(
            lambda: GuardedH11(config=config, server_state=state, app_state={}, guard=guard),
            sock=sock)
        stop = asyncio.Event()
        self._stopping = lambda: loop.call_soon_threadsafe(stop.set)
        self.guard, self.state = guard, state
        port = sock.getsockname()[1]
        host = reachable(self.host)
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
        matrix(self.url)                         # segno loaded here, not at the loop's next frame
        self.card.url = self.url
        if self._stop.is_set():
            return
        self._redraw()                           # the join card on the panel now
        self._tell()
        log.info("the table's page: %s", self.url)
        self.ready.set()
        if self._stop.is_set():
            return
        await stop.wait()
        watch.close()                            # each stream ends at its wake
        server.close()
        for connection in list(state.connections):
            connection.transport.abort()
        if state.tasks:
            await asyncio.wait(list(state.tasks), timeout=1.0)

    def _tell(self) -> None:
        if self.state_dir is not None and self.url is not None:
            try:
                tell(self.state_dir, self.url)
            except OSError as exc:
                log.warning("web.json not written: %s", exc.strerror or exc)

    def _forget(self) -> None:
        if self.state_dir is not None and self.url is not None:
            try:
                forget(self.state_dir)
            except OSError:
                pass

    def close(self) -> None:
        """Stop serving; the table's loop goes on (or ends) without waiting for a client. A
        page still loading its packages is not waited for: it stops as soon as they are in."""
        self._stop.set()
        stopping = getattr(self, "_stopping", None)
        if stopping is None:
            return
        try:
            stopping()
        except RuntimeError:                     # its loop already ended
            pass
        if self._thread is not None:
            self._thread.join(5.0)



class Carded:
    """A display that shows each frame with the join card on it where it goes."""

    def __init__(self, display, carded: Callable) -> None:
        self._display, self._carded = display, carded

    def show(self, image) -> None:
        self._display.show(self._carded(image))

    def __getattr__(self, name: str):
        return getattr(self._display, name)
