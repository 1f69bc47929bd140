"""The café's house rules and language for one table, sent from the back office.

    tabletop/<table>/defaults   retained: {"table", "at", "games": {game id: {option: value}},
                                "language": "fr" or null}, signed with the café's admin key

Checked as a card request is (claim.py: the admin key, the topic inside the signature, a
counter that must grow, freshness.py), then value by value as the back office checked it
before signing (device/storage/house_defaults.py `checked`): one bad value and the message
is refused whole, in one log line, and nothing changes. A taken one is kept in the state
dir: the next game's setup starts from its options (device/ui/wizard.py), and the table
takes its language once no game runs and nothing is on screen over the game select
(`CafeLanguage`). The retained message heard again at each connection is a repeat: nothing
new is done with it.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Mapping
from pathlib import Path

import engine
from device.actions import NOTHING, Actions, SetLanguage
from device.plugin import Plugin
from device.storage.house_defaults import DefaultsRefused, HouseDefaults, checked, keep, kept
from engine.core.spec import GameSpec

from . import keys
from .claim import open_signed
from .claim_plugin import at_rest
from .envelope import ADMIN, Refused, Signer
from .freshness import NEW, STALE, Freshness
from .topics import defaults_topic

log = logging.getLogger(__name__)


def defaults_message(signer: Signer, table: str, at: str, defaults: HouseDefaults) -> tuple[str, bytes]:
    """The café's signed, retained message of `table`'s defaults: its topic and payload."""
    topic = defaults_topic(table)
    return topic, signer.seal(topic, {"table": table, "at": at, **defaults.plain()})


def read_defaults(table: str, topic: str, payload: bytes, admin_public, seen: Freshness | None,
                  specs: Mapping[str, GameSpec] | None = None) -> tuple[HouseDefaults, bool]:
    """The café's defaults for this table, and whether they are new (not the message taken
    last, heard again); Refused for anything else, its counter then left as it was. `specs`:
    the games by id (None: the engine's)."""
    if topic != defaults_topic(table):
        raise Refused("not this table's defaults topic")
    data = open_signed(topic, payload, ADMIN, admin_public, None)
    if data.get("table") != table:
        raise Refused("for another table")
    try:
        defaults = checked(data.get("games"), data.get("language"), specs)
    except DefaultsRefused as exc:
        raise Refused(str(exc)[:160]) from None
    verdict = NEW if seen is None else seen.admit(ADMIN, topic, data["counter"], payload)
    if verdict == STALE:
        raise Refused(f"not newer than what {ADMIN} said before on it (a replay)")
    return defaults, verdict == NEW


class DefaultsBox:
    """The table's side: the café's defaults checked on the link's thread and kept; `due`
    is set while a language waits for the table to take it."""

    def __init__(self, table: str, admin_key: str | None, seen: Freshness | None,
                 state_dir: Path) -> None:
        self.table, self.seen, self.state_dir = table, seen, Path(state_dir)
        self.admin = keys.public_key(admin_key) if admin_key else None
        self.topic = defaults_topic(table)
        # the games taken in here, on the thread that starts the table: the link's thread
        # never makes the engine look for them (a search it would race the table's own with)
        self.specs = {spec.id: spec for spec in engine.all_specs()}
        self._lock = threading.Lock()
        self.due = threading.Event()
        if kept(self.state_dir).language_due:          # sent before a restart, not taken yet
            self.due.set()

    def receive(self, topic: str, payload: bytes) -> str | None:
        """None once taken as new; who sent it (for the floodgate) when refused, in one log
        line, or when it is the message already taken."""
        try:
            defaults, new = read_defaults(self.table, topic, payload, self.admin, self.seen, self.specs)
        except Refused as exc:
            log.warning("fleet: refused the café's house rules on %.80s: %s", topic, exc)
            return ADMIN
        if not new:
            return ADMIN
        due = defaults.language is not None
        try:
            with self._lock:
                keep(self.state_dir, dataclasses.replace(defaults, language_due=due))
        except OSError as exc:
            log.error("fleet: the café's house rules not kept: %s", exc.strerror or exc)
            return None
        if due:
            self.due.set()
        log.info("fleet: the café's house rules for the next game: %s%s",
                 ", ".join(sorted(defaults.games)) or "none",
                 f"; language {defaults.language}" if due else "")
        return None

    def take_language(self) -> str | None:
        """The language the café sent, once (None when none waits)."""
        self.due.clear()
        with self._lock:
            defaults = kept(self.state_dir)
            if not defaults.language_due:
                return None
            try:
                keep(self.state_dir, dataclasses.replace(defaults, language_due=False))
            except OSError as exc:              # taken now, and again after a restart
                log.error("fleet: the café's language not marked taken: %s", exc.strerror or exc)
        return defaults.language


def heard_with(box: DefaultsBox, others):
    """The table's handler of what it hears: its defaults topic to `box`, the rest to `others`."""
    def heard(topic: str, payload: bytes) -> str | None:
        return box.receive(topic, payload) if topic == box.topic else others(topic, payload)
    return heard


class CafeLanguage(Plugin):
    """The café's language for this table, taken at the game select with nothing over it: a
    game, its setup or a menu is never switched under the players."""

    order = 11

    def __init__(self, box: DefaultsBox) -> None:
        self.box = box

    def tick(self, app) -> Actions:
        if not (self.box.due.is_set() and at_rest(app)):
            return NOTHING
        language = self.box.take_language()
        return [SetLanguage(language)] if language is not None and language != app.language \
            else NOTHING
