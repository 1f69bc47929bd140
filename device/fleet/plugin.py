"""The table in the café's fleet: an app plugin that publishes to the MQTT broker.

Under tabletop/<table>/ (device/fleet_topics.py, docs/fleet.md): `state`, retained, as
the table starts and whenever what it shows changes (sampled as each frame is built, so the
broker sees what the players see); `events`, one message per accepted event with a per-table
`seq`; `finished` once per game that ended with a result (both leave from the disk:
journal_feed.py); `online`, retained, with a
last will. Publishing only queues (device/fleet_link.py): the game never waits for the
network and plays the same with the broker gone. The plugin also offers, at idle, the
decks and staff cards other tables share (device/fleet_ui.py).
"""
from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Fault, Show, Switch
from device.clock import whole_seconds
from device.decks.registry import DeckRegistry, StaffRef
from device.inputs import Tapped
from device.players.roster import RosterError
from device.plugin import Outcome, Plugin
from device.storage.status import note_fleet
from device.ui.game_select import GameSelect
from engine import Accepted
from engine.core.text import msg

from .failures import failure
from .floodgate import Floodgate
from .home_assistant import discovery
from .identity import announced, identity
from .journal_feed import JournalFeed
from .link import FleetUnavailable, Link
from .screens import ImportOffer
from .shared import Inbox, enrol_tapped, merge_roster
from .sitting import Sitting
from .table_state import finished_record, table_state
from .topics import SHARED_FILTER, encode, table_topic
from .words import to_plain

log = logging.getLogger(__name__)

LAST_MESSAGES = 4             # of the last event, for the dashboard (a screen shows fewer)


def table_name(settings) -> str:
    """The configured table name, else the host name made topic-safe."""
    if settings.table:
        return settings.table
    name = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:32].strip("-")
    return name if name and name != "shared" else "table"


class FleetPlugin(Plugin):
    order = 10            # first: while it offers a shared deck, a staff tap answers it

    def __init__(self, link, table: str, wall_clock, inbox: Inbox | None = None,
                 registry=None, feed=None) -> None:
        self.link, self.table, self.wall_clock = link, table, wall_clock
        self.inbox, self.registry, self.feed = inbox, registry, feed
        self.seq = 0                             # the current game's operations seen here
        self._session = None
        self._state: dict | None = None          # the last state published, but its time
        self._game: tuple | None = None          # (session, view, said, started) while over
        self._sitting = Sitting()
        self._last: list[dict] = []              # the last accepted operation's messages
        self._noted: object = ()                 # the offline reason `tabletop status` has
        self._state_dir = None

    def _encoded(self, payload: dict) -> bytes:
        """A message of this table, now, signed with the café's key when it has one."""
        payload = {"table": self.table, "at": self.wall_clock(), **payload}
        return encode(payload, self.inbox.key if self.inbox is not None else None)

    def _send(self, kind: str, payload: dict, retain: bool = False) -> None:
        self.link.publish(table_topic(self.table, kind), self._encoded(payload), retain)

    # ---- app hooks -------------------------------------------------------------------------

    def start(self, app) -> None:
        """The state is published before the table's first input: it leaves as soon as the
        link is up, so a dashboard watching first sees the table at once."""
        self.after_input(app)

    def on_outcome(self, app, outcome: Outcome) -> None:
        """The event itself leaves from the journal (journal_feed): this only wakes the feed."""
        if isinstance(outcome.answer, Accepted):
            if app.session is not self._session:
                self._session, self.seq = app.session, 0
            self.seq += 1
            self._last = [to_plain(m) for m in outcome.answer.effects[:LAST_MESSAGES]]
            if self.feed is not None:
                self.feed.poke()

    def on_input(self, app, event) -> Actions | None:
        """While an import is offered, a staff card's tap is its answer (a kiosk would
        otherwise open its admin menu with it): so this plugin goes first."""
        if isinstance(app.mode, ImportOffer) and isinstance(event, Tapped):
            if isinstance(event.ref, StaffRef):
                return app.mode.tap(app, event.uid, event.ref)
        if isinstance(event, Tapped) and event.ref is None and self.inbox is not None \
                and self.inbox.key and self.registry is not None:
            label = enrol_tapped(self.registry, self.inbox.key, event.uid)
            if label is not None:                # an imported staff card's first tap here
                return [Show.of(msg("fleet.staff_enrolled", label=label), seconds=3)]
        return None

    @property
    def offline_reason(self) -> str | None:
        """Why the link does not work now (it cannot start, the broker refuses us or cannot
        be reached), for the admin menu and `tabletop status`; None while it works."""
        link = self.link
        return link.offline or link.refused or link.unreachable

    def tick(self, app) -> Actions:
        self.link.check()
        fault = msg("fleet.refused") if self.link.refused else \
            msg("fleet.offline") if self.link.offline else None
        self._note_offline(app.store.dir)
        self._merge_roster()
        return [Fault("fleet", fault), *self._offer(app)]

    def after_input(self, app) -> None:
        """The retained state follows the table after each input and tick, never while a
        screen is built."""
        state = table_state(app)
        if self.feed is not None and app.session is None and self._session is not None:
            self._session = None
            self.feed.poke()                     # the game was archived: send its last lines
        game = state["game"]
        state["times"] = self._sitting.follow(app, bool(game and game["over"]))
        state["said"]["last"] = self._last if app.session is self._session else []
        self._note_finished(app, state)
        if state != self._state:         # the seconds played alone change nothing to send
            self._state = state
            times = {**state["times"], "elapsed": played(app, bool(game and game["over"]))}
            self._send("state", {**state, "times": times}, retain=True)

    # ---- helpers ---------------------------------------------------------------------------

    def _note_offline(self, state_dir) -> None:
        """Leave the reason where `tabletop status` reads it, when it changed (and once at
        the first tick, over whatever an earlier run left)."""
        reason = self.offline_reason
        if reason != self._noted:
            note_fleet(state_dir, reason)
            self._noted, self._state_dir = reason, state_dir

    def _note_finished(self, app, state: dict) -> None:
        """A game that was over and is left (SELECT on the result, or a new game) is finished:
        its length and start are the store's, from the end it just wrote."""
        if self._game is not None and self._game[0] is not app.session:
            _, view, said, started = self._game
            record = finished_record(view, said, started, app.store.ended)
            if self.feed is not None:           # on disk first, then sent like the events
                self.feed.keep_finished(self._encoded(record))
            else:
                self._send("finished", record)
            self._game = None
        view = state["game"]
        if view is not None and view["over"]:
            self._game = (app.session, view, state["said"], state["times"]["started"])
        elif self._game is not None:
            self._game = None                    # undone from the result: not finished after all

    def _merge_roster(self) -> None:
        """The roster another table shares joins this one's, on the table's own thread."""
        shared = self.inbox.new_roster(self.table) if self.inbox is not None else None
        if shared is None or self.registry is None:
            return
        try:
            added = merge_roster(self.registry, shared)
        except (RosterError, OSError) as exc:
            log.error("fleet: the roster from %s not merged: %s", shared.table, exc)
            return
        if added:
            log.info("fleet: players from %s: %s", shared.table, ", ".join(added))

    def _offer(self, app) -> Actions:
        """At idle, the next deck or staff list another table shares, if any."""
        if self.inbox is None or self.registry is None or not idle(app):
            return NOTHING
        shared = self.inbox.next_offer(self.registry, self.table)
        if shared is None:
            return NOTHING
        return [Switch(ImportOffer(shared, self.inbox, self.registry, app.mode))]

    def close(self) -> None:
        if self._state_dir is not None:
            note_fleet(self._state_dir, None)    # no table runs: nothing is offline
        if self.feed is not None:
            self.feed.poke()
            self.feed.close()
        self.link.close()


def played(app, over: bool) -> int:
    """Whole seconds the running game has been played, on the monotonic clock: a game that is
    over stands at its last move. A reader adds the time since the message."""
    store = app.store
    return whole_seconds(store.recorded if over else store.elapsed()) if app.session else 0


def idle(app) -> bool:
    """At game select with nothing on screen over it: an offer interrupts no one."""
    return app.session is None and app.overlay is None and type(app.mode) is GameSelect


def open_fleet(config, state_dir, wall_clock,
               monotonic: Callable[[], float] = time.monotonic) -> FleetPlugin | None:
    """The plugin when [fleet] is enabled, connecting in the background; else None.

    Without paho-mqtt the table says so in its log and plays on, unpublished. A flood on the
    shared topics pauses them on `monotonic`, the table's clock (device/fleet/floodgate.py)."""
    settings = config.fleet
    if not settings.enabled:
        return None
    table = table_name(settings)
    inbox = Inbox(settings.key)
    feeds: list[JournalFeed] = []
    link: Link | OfflineLink
    try:
        link = Link(settings, f"tabletop-{table}", online_topic=table_topic(table, "online"),
                    subscriptions=(SHARED_FILTER,), on_message=inbox.receive,
                    on_up=announce(table, state_dir if settings.home_assistant else None, feeds),
                    floodgate=Floodgate(monotonic)).start()
    except FleetUnavailable as exc:
        log.error("fleet: %s", exc)
        return None
    except (OSError, ValueError) as exc:          # a bad CA file, TLS set-up: shown, not fatal
        link = OfflineLink(failure(exc))
        log.error("fleet offline: %s", link.offline)
    log.info("fleet: table %s publishes to %s", table, settings.host)
    if not link.offline:
        feeds.append(JournalFeed(link, table, state_dir, wall_clock, settings.key).start())
    return FleetPlugin(link, table, wall_clock, inbox, DeckRegistry(state_dir),
                       feeds[0] if feeds else None)


def announce(table: str, state_dir: Path | None, feeds: list):
    """On each connection: the table as a Home Assistant device (retained, so idempotent; with
    `state_dir`, where the table's id is kept), and the journal feed woken to send what the
    broker missed."""
    def up(link) -> None:
        if state_dir is not None:
            ident = identity(state_dir)
            for topic, payload in discovery(table, ident.id, renamed_from=ident.announced_as):
                link.publish(topic, payload, retain=True)
            announced(state_dir, ident, table)
        for feed in feeds:
            feed.poke()
    return up


class OfflineLink:
    """A link that could not be made: it says why and publishes nothing."""

    refused = unreachable = fault = None

    def __init__(self, why: str) -> None:
        self.offline = why

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        pass

    def check(self) -> None:
        pass

    def close(self, flush_s: float = 0) -> bool:
        return False
