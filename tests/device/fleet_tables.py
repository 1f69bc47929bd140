"""Simulated café tables for the fleet tests: a Companion on simulated parts with its FleetPlugin.

Each table is driven by simulator lines through the real presence tracker and the real
screens. `random_game_lines` picks a random legal event at each step and writes the
lines a player would type for it (a tap, or the presses that reach a menu entry).
"""
from __future__ import annotations

import datetime
import hashlib
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import engine
import seeds
from device.app import Companion
from device.config import FleetConfig
from device.decks.deck_file import Deck, deck_text, families
from device.decks.registry import DeckRegistry
from device.decks.simulated import SimDecks, sim_uid
from device.fleet import keys, schema
from device.fleet.acl import acl
from device.fleet.counter import Counter
from device.fleet.envelope import ADMIN, Signer, Trust
from device.fleet.floodgate import Floodgate
from device.fleet.freshness import Freshness
from device.fleet.journal_feed import JournalFeed
from device.fleet.link import Link
from device.fleet.plugin import FleetPlugin
from device.fleet.shared import Inbox
from device.fleet.table_state import table_state
from device.fleet.topics import SHARED_FILTER, table_topic
from device.loop import Frames
from device.sim.clock import VirtualClock
from device.sim.lines import SimReaderField
from device.sim.play import run_sim
from device.storage.store import GameStore
from device.ui.playing import CONFIRM_KEY
from engine import Accepted, Cancel, Choose, Confirm, Session, Tap, make_config, step
from engine.core.step import candidate_events

FLEET_KEY = "cafe-tag-key-of-32-characters-001"   # hides staff UIDs; signs nothing
ADMIN_PRIVATE = bytes(range(1, 33))          # the café's admin key, fixed for the tests


def admin_private():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    return Ed25519PrivateKey.from_private_bytes(ADMIN_PRIVATE)


ADMIN_KEY = keys.public_text(admin_private())


def admin_signer(folder: Path) -> Signer:
    """The café's signer, its counter in `folder` (the café's machine)."""
    return Signer(admin_private(), ADMIN, Counter(folder))


def cafe_admin(state_dir: Path) -> Signer:
    """The café's machine: the admin key in its state dir, as `fleet keys --admin` keeps it."""
    folder = Path(state_dir) / keys.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / keys.ADMIN).write_text(ADMIN_PRIVATE.hex() + "\n")
    return Signer.admin(Path(state_dir))
SETTLE = "wait 10"        # longer than any message's pages and the tap debounce
PAST = datetime.timedelta(hours=2)


def cafe_inbox(folder: Path, key: str | None = FLEET_KEY) -> Inbox:
    """A table's inbox: it takes what the café's admin key signed, newer than what it took."""
    return Inbox(Trust.of(ADMIN_KEY, Freshness.at(folder)), key)


class Count:
    """A publisher's counter in memory: one that only grows, for tests without a state dir."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n


_COUNT = Count()


def table_signer(name: str, key: str = "") -> Signer:
    """Table `name`'s signer with a key made from its name (and `key`: another one for a
    forger), so a test's board knows it without a state dir."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    seed = hashlib.sha256(f"{key}/{name}".encode("utf-8", "surrogatepass")).digest()
    return Signer(Ed25519PrivateKey.from_private_bytes(seed), name, _COUNT)   # type: ignore[arg-type]


class AnyTable(dict):
    """The café's list of tables as a test's board sees it: every name enrolled with the key
    `table_signer` gives it."""

    def get(self, name, default=None):
        return keys.public_key(keys.public_text(table_signer(name).private))


def table_key(folder: Path, name: str) -> str:
    """A table's public key, made in its state dir before it starts (as `fleet keys` does)."""
    return keys.public_text(Signer.table(folder, name).private)


def keyed_board(every_table: bool = False, **given):
    """A dashboard with the café's admin key: only the tables the café enrols count (with
    `every_table`, any name, signed by `table_signer`)."""
    from device.fleet.dashboard.board import Board
    trust = Trust.of(ADMIN_KEY, Freshness(None))
    if every_table:
        trust.tables = AnyTable()
    return Board(trust=trust, **given)


def enrolment(tables: dict[str, str], folder: Path) -> tuple[str, bytes]:
    """The café's signed list of tables (name -> public key), as `fleet enrol` shares it."""
    from device.fleet.shared import tables_message
    return tables_message(tables, "cafe", "now", admin_signer(folder))


def settings_for(broker, **changes) -> FleetConfig:
    from tests.device.mosquitto import PASSWORD, USER
    base = dict(enabled=True, host=broker.host, port=broker.port, username=USER, password=PASSWORD,
                key=FLEET_KEY, admin_key=ADMIN_KEY)
    return FleetConfig(**{**base, **changes})


class SeenFrames(Frames):
    """A table's frames without a panel: each new screen is kept, and none is drawn (the
    fleet's tests read the screens; what a drawn frame holds is the OLED's tests', and a
    table's plugin still draws the frames it sends)."""

    def __init__(self, seen: list) -> None:
        super().__init__()
        self.seen = seen

    def update(self, app) -> bool:
        self._set_level(app.display_level, app.brightness)
        screen = app.screen()
        if screen == self.last:
            return False
        self.last, self.count = screen, self.count + 1
        self.seen.append(screen)
        return True


class CafeTable:
    """A table of the café on simulated parts, with its fleet plugin where it has settings."""

    def __init__(self, folder: Path, name: str, settings: FleetConfig | None) -> None:
        self.name = name
        # virtual time moves the wall clock too: starting it two hours back keeps every label
        # the evening writes in the past, where the dashboard takes it (a future date it drops)
        self.clock = VirtualClock(wall=(datetime.datetime.now().astimezone() - PAST).isoformat())
        self.registry = DeckRegistry(folder)
        sim = SimDecks(self.registry)
        self.app = Companion(registry=sim, store=GameStore(folder, clock=self.clock),
                             clock=self.clock, language="en")
        self.field = SimReaderField(sim.sim_uid, clock=self.clock)
        self.screens: list = []
        self.frames = SeenFrames(self.screens)
        self.complaints: list[str] = []
        self.plugin = None
        if settings is not None:
            self.signer = Signer.table(folder, name)
            self.inbox = Inbox(Trust.of(settings.admin_key, Freshness.at(folder)), settings.key)
            self.heard = threading.Event()
            link = Link(settings, f"tabletop-{name}", online_topic=table_topic(name, "online"),
                        subscriptions=(SHARED_FILTER,), on_message=self._heard,
                        on_up=lambda _link: self.feed.poke(),
                        floodgate=Floodgate(self.clock.monotonic), seal=self.signer.seal)
            self.feed = JournalFeed(link, name, folder, self.clock.wall, self.signer)
            self.plugin = FleetPlugin(link.start(), name, self.clock.wall, self.inbox, self.registry,
                                      self.feed.start(), self.signer, self.clock.monotonic)
            self.app.attach(self.plugin)

    @property
    def public_key(self) -> str:
        return keys.public_text(self.signer.private)

    def _heard(self, topic: str, payload: bytes) -> str | None:
        try:
            return self.inbox.receive(topic, payload)
        finally:
            self.heard.set()

    @property
    def link(self) -> Link:
        return self.plugin.link

    def wait_down(self, timeout: float) -> str | None:
        """Wait until a connection attempt failed or was refused (or `timeout` passed); why."""
        link = self.link
        with link._progress:           # what the link's threads signal each attempt by
            link._progress.wait_for(lambda: link.refused or link.unreachable, timeout)
        return link.refused or link.unreachable

    def start(self, game: str, players: list[str]) -> None:
        spec = engine.get(game)
        config = make_config(spec, players, None, {}, seeds.game_data(spec.id, spec.deck))
        self.app.start_game(Session(spec, config), f"sim-{spec.deck}")

    def play(self, lines) -> None:
        if isinstance(lines, str):
            lines = lines.strip().splitlines()
        run_sim(self.app, lines, self.clock, self.frames, self.field, self.complaints.append)

    def view(self) -> dict | None:
        return table_state(self.app)["game"]


def random_game_lines(app, rng: random.Random, limit: int):
    """Lines for random legal events until the game is over (or `limit` events)."""
    for _ in range(limit):
        session = app.session
        if session is None or session.spec.result(session.state) is not None:
            return
        while app.overlay is not None and app.overlay.until is None:
            yield "press back"             # an instruction is read before the next press
        event = random_event(session, rng)
        yield from lines_for(app, event)
        yield SETTLE


def random_event(session, rng: random.Random):
    """A random accepted event: candidates in random order, the first the rules take
    (much cheaper than stepping every candidate for the whole legal list)."""
    candidates = candidate_events(session.spec, session.state)
    rng.shuffle(candidates)
    return next(e for e in candidates if isinstance(step(session.spec, session.state, e), Accepted))


def lines_for(app, event) -> list[str]:
    if isinstance(event, Tap):
        return [f"tap {event.card}"]
    if isinstance(event, Cancel):
        return ["press back"]
    picker = getattr(app.mode, "picker", None)
    if picker is not None and isinstance(event, Choose):     # a number: its digits
        return [f"press {name}" for name in picker.presses_to(int(event.option))]
    menu = app.mode.menu
    if menu is None:
        assert isinstance(event, Confirm), event
        return ["press select"]
    key = CONFIRM_KEY if isinstance(event, Confirm) else event.option
    assert isinstance(event, (Confirm, Choose))
    target = [k for k, _ in menu.items].index(key)
    return ["press down"] * ((target - menu.index) % len(menu.items)) + ["press select"]


def plain(value):
    """As it comes back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def settle(board, ready, timeout: float, broker) -> dict:
    """The board's view once `ready(view)` holds; each look waits for the board to change."""
    deadline = time.monotonic() + timeout
    while True:
        view = board.view()
        if ready(view):
            return view
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"the dashboard never got there: {view}\nbroker: {broker.log[-1500:]}"
        board.wait(view["version"], remaining)


def shows(view: dict, table: CafeTable) -> bool:
    """The board has every event of the table and shows the table as it is now."""
    return showing([table])(view)


def showing(tables: list[CafeTable]):
    """`shows` for every one of `tables` as they are now: what each should show is worked out
    once, for a settle that waits through every change of the board while they stand still."""
    # what the board keeps of the state the table shows now; the times and words are the
    # plugin's own (tested with the dashboard)
    now = datetime.datetime.now().astimezone()
    drop = ("times", "said", "version", "screen", "decks")     # the plugin's, like the times
    expected = {table.name: (table.plugin.seq, {
        k: v for k, v in schema.state(plain(table_state(table.app)), now).items() if k not in drop})
        for table in tables}

    def ready(view: dict) -> bool:
        seen = {t["name"]: t for t in view["tables"]}
        for name, (seq, state) in expected.items():
            shown = seen.get(name)
            if shown is None or shown["seq"] != seq or shown["state"] is None:
                return False
            if {k: v for k, v in shown["state"].items() if k not in drop} != state:
                return False
        return True
    return ready


def a_deck(registry: DeckRegistry, name: str) -> None:
    """A complete Palourde deck of made-up tags, enrolled in `registry`."""
    family = families()["palourde"]
    tags = {sim_uid("cafe", f"{name}:{card}"): card for card in family.cards}
    registry.import_text(deck_text(Deck(name, "palourde", tags)))


@contextmanager
def broker_under_the_acl(folder: Path, tables: tuple[str, ...] = ("t1",),
                         owner: str = "cafe-admin") -> Iterator[object]:
    """Mosquitto with an account for each table and the café's own, under the access list
    `tabletop fleet acl` writes for them."""
    from tests.device.mosquitto import PASSWORD, Broker
    broker = Broker(folder)
    for user in (*tables, owner):
        broker.add_user(user, PASSWORD)
    broker.use_acl(acl(list(tables), owner, []))
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
