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

import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Fault, Show, Switch
from device.clock import whole_seconds
from device.decks.deck_file import DeckError
from device.decks.registry import DeckRegistry, StaffRef
from device.inputs import Tapped
from device.install.distribution import extra_hint, version
from device.players.roster import RosterError
from device.plugin import Answered, Plugin
from device.storage.status import note_fleet
from device.ui.game_select import GameSelect
from engine import Accepted
from engine.core.text import msg

from . import home_assistant
from .claim import REQUEST, ClaimBox, claim_topic, heard_by, wall_ms_of
from .claim_plugin import CardClaim
from .defaults import CafeLanguage, DefaultsBox, heard_with
from .envelope import Signer, Trust
from .failures import failure
from .floodgate import Floodgate
from .freshness import Freshness
from .home_assistant import discovery, renamed_away
from .identity import announced, identity
from .journal_feed import JournalFeed
from .keys import public_text
from .link import FleetUnavailable, Link
from .screen_feed import ScreenFeed
from .screens import ImportOffer
from .shared import (
    Inbox,
    SharedRoster,
    SharedStaff,
    enrol_tapped,
    merge_roster,
    revoked_staff,
    take_staff,
)
from .sitting import Sitting
from .table_state import DecksHeld, finished_record, table_state
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
    parts: tuple[Plugin, ...] = ()           # attached with it (the card claims)

    def __init__(self, link, table: str, wall_clock, inbox: Inbox | None = None,
                 registry=None, feed=None, signer: Signer | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.link, self.table, self.wall_clock, self.signer = link, table, wall_clock, signer
        self.oled = ScreenFeed(monotonic)            # the OLED, for the back office
        self.decks = DecksHeld(registry, monotonic) if registry is not None else None
        self.version = version()
        self.inbox, self.registry, self.feed = inbox, registry, feed
        self.seq = 0                             # the current game's operations seen here
        self._session = None
        self._state: dict | None = None          # the last state published, but its time
        self._game: tuple | None = None          # (session, view, said, started, id) while over
        self._sent = None                        # the last game whose finished message went
        self._sitting = Sitting()
        self._last: list[dict] = []              # the last accepted operation's messages
        self._noted: object = ()                 # the offline reason `tabletop status` has
        self._state_dir = None

    def _encoded(self, kind: str, payload: dict) -> bytes:
        """A message of this table, now, signed with the table's own key."""
        payload = {"table": self.table, "at": self.wall_clock(), **payload}
        topic = table_topic(self.table, kind)
        return self.signer.seal(topic, payload) if self.signer is not None else encode(payload)

    def _send(self, kind: str, payload: dict, retain: bool = False) -> None:
        self.link.publish(table_topic(self.table, kind), self._encoded(kind, payload), retain)

    # ---- app hooks -------------------------------------------------------------------------

    def start(self, app) -> None:
        """The state is published before the table's first input: it leaves as soon as the
        link is up, so a dashboard watching first sees the table at once."""
        self.after_input(app)

    def on_outcome(self, app, outcome: Answered) -> None:
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
                return app.mode.tap(app, event)
        key = self.inbox.key if self.inbox is not None else None
        if not (isinstance(event, Tapped) and key and self.registry is not None):
            return None
        if isinstance(event.ref, StaffRef) and revoked_staff(self.registry, key, event.uid):
            # the café took it back: not even the tick that removes it lets it in
            return [Show.of(msg("fleet.staff_revoked", label=event.ref.label), seconds=3)]
        if event.ref is None:
            label = enrol_tapped(self.registry, key, event.uid)
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
        self._take_news()
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
        state.update(version=self.version, screen=self.oled.frame(app))
        if self.decks is not None:
            state["decks"] = self.decks.now()
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
        """A game is finished once its end is on disk: the moment it ended, before anyone
        leaves its result (or, where the disk refused its end then, as the result is left and
        the end is written). Sent once a game here, its length and start the store's, from
        the end it wrote; a restart on the result sends it again, and readers count a game
        once by its id."""
        if self._game is not None and self._game[0] is not app.session:
            if self._game[0] is not self._sent:
                self._finished(app, *self._game[1:])
            self._game = None
        view = state["game"]
        if view is not None and view["over"]:
            game = self._game
            kept = game[4] if game is not None and game[0] is app.session else \
                app.store.result_id or journal_id(app.store.current)
            self._game = (app.session, view, state["said"], state["times"]["started"], kept)
            if app.store.journal is None and self._sent is not app.session:
                self._sent = app.session             # recorded: its end is on disk
                self._finished(app, *self._game[1:])
        elif self._game is not None:
            self._game = None                    # undone from the result: not finished after all

    def _finished(self, app, view: dict, said: dict, started: str | None,
                  game_id: str | None) -> None:
        record = finished_record(view, said, started, app.store.ended)
        if game_id is not None:
            record["game_id"] = game_id
        if self.feed is not None:           # on disk first, then sent like the events
            self.feed.keep_finished(self._encoded("finished", record))
        else:
            self._send("finished", record)

    def _take_news(self) -> None:
        """The café's latest staff list and roster, taken on the table's own thread: what they
        no longer name is taken back at once, what they add joins."""
        if self.inbox is None or self.registry is None:
            return
        for shared in self.inbox.news():
            try:
                if isinstance(shared, SharedRoster):
                    changed = merge_roster(self.registry, shared)
                    if changed:
                        log.info("fleet: players from the café: %s", ", ".join(changed))
                elif isinstance(shared, SharedStaff) and self.inbox.key:
                    taken = take_staff(self.registry, shared, self.inbox.key)
                    if taken:
                        log.warning("fleet: staff cards taken back by the café: %s",
                                    ", ".join(taken))
            except (RosterError, DeckError, OSError) as exc:
                log.error("fleet: the café's list not taken: %s", exc)

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


def journal_id(path: Path) -> str | None:
    """The id in a journal's header line (a finished game's id, counted once by readers)."""
    try:
        with open(path, encoding="utf-8") as journal:
            header = json.loads(journal.readline(4096))
    except (OSError, ValueError):
        return None
    found = header.get("id") if isinstance(header, dict) else None
    return found if isinstance(found, str) else None


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
    feeds: list[JournalFeed] = []
    link: Link | OfflineLink
    try:
        signer = Signer.table(Path(state_dir), table)
    except ImportError:
        log.error("fleet: the fleet needs cryptography: %s", extra_hint("fleet"))
        return None
    except OSError as exc:          # no key can be kept: nothing this table says would count
        log.error("fleet offline: the table's key cannot be kept in %s: %s", state_dir,
                  exc.strerror or exc)
        return None
    inbox = Inbox(Trust.of(settings.admin_key, Freshness.at(state_dir)), settings.key)
    claims = ClaimBox(table, settings.admin_key, inbox.trust.seen, lambda: wall_ms_of(wall_clock()))
    house = DefaultsBox(table, settings.admin_key, inbox.trust.seen, Path(state_dir))
    try:
        link = Link(settings, f"tabletop-{table}", online_topic=table_topic(table, "online"),
                    subscriptions=(SHARED_FILTER, claim_topic(table, REQUEST), house.topic),
                    on_message=heard_with(house, heard_by(inbox.receive, claims.receive)),
                    on_up=announce(table, state_dir if settings.home_assistant else None, feeds),
                    floodgate=Floodgate(monotonic), seal=signer.seal).start()
    except FleetUnavailable as exc:
        log.error("fleet: %s", exc)
        return None
    except (OSError, ValueError) as exc:          # a bad CA file, TLS set-up: shown, not fatal
        link = OfflineLink(failure(exc))
        log.error("fleet offline: %s", link.offline)
    log.info("fleet: table %s publishes to %s, signing with the key %s (tabletop fleet enrol "
             "%s %s on the café's machine)", table, settings.host, public_text(signer.private),
             table, public_text(signer.private))
    if not link.offline:
        feeds.append(JournalFeed(link, table, state_dir, wall_clock, signer).start())
    fleet = FleetPlugin(link, table, wall_clock, inbox, DeckRegistry(state_dir),
                        feeds[0] if feeds else None, signer, monotonic)
    fleet.parts = (CardClaim(claims, link, signer, Path(state_dir), settings.key), CafeLanguage(house))
    return fleet


def announce(table: str, state_dir: Path | None, feeds: list, later=None):
    """On each connection: the table as a Home Assistant device (retained, so idempotent; with
    `state_dir`, where the table's id is kept), and the journal feed woken to send what the
    broker missed. A table renamed since its last announcement empties its old name's configs
    first, and sends the new ones home_assistant.RENAME_PAUSE_S later (`later(delay, send)`)."""
    def up(link) -> None:
        if state_dir is not None:
            ident = identity(state_dir)
            away, configs = renamed_away(ident.announced_as, table), discovery(table, ident.id)

            def send(messages=configs) -> None:
                for topic, payload in messages:
                    link.publish(topic, payload, retain=True)
            send(away)
            if away and home_assistant.RENAME_PAUSE_S > 0:
                (later or _later)(home_assistant.RENAME_PAUSE_S, send)
            else:
                send()
            announced(state_dir, ident, table)
        for feed in feeds:
            feed.poke()
    return up


def _later(delay: float, send: Callable[[], None]) -> None:
    timer = threading.Timer(delay, send)
    timer.daemon = True
    timer.start()


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
