"""Decks, staff cards and the café's roster shared between the café's tables through the broker.

A table publishes a deck file (`tabletop deck publish NAME`), its staff list (`tabletop
deck staff publish`) or its roster (`tabletop players publish`) as a retained message under
tabletop/shared/. Every other table hears it; one that lacks a deck or staff card offers
the import at idle, and a staff card's tap confirms it (device/fleet_ui.py); staff at a
terminal use `tabletop fleet import-deck NAME`. A roster, signed with the café's key, is
merged as it is heard: names are no privilege, and only ever added.
"""
from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass

from device.decks.deck_file import DeckError, parse_deck
from device.decks.registry import DeckRegistry, TagTaken
from device.players.roster import Player, Roster, RosterError, parse_roster, roster_text

from .signing import StaffRoll, authentic, sign, staff_hash
from .topics import SCHEMA, SHARED_PLAYERS, SHARED_STAFF, decode, encode, shared_deck_of, shared_deck_topic

log = logging.getLogger(__name__)


REMEMBERED = 256              # topics whose last message is remembered: any client can add one


@dataclass(frozen=True)
class SharedDeck:
    name: str
    family: str
    table: str                        # who published it
    text: str                         # the deck file, as `tabletop deck export` prints it


    @property
    def cards(self) -> int:
        return len(parse_deck(self.text, self.name).tags)


@dataclass(frozen=True)
class SharedStaff:
    table: str
    cards: tuple[tuple[str, str], ...]  # (keyed hash of the UID, label)


@dataclass(frozen=True)
class SharedRoster:
    table: str
    players: tuple[Player, ...]


def _signed(data: dict, key: str | None) -> bytes:
    return encode(sign({"schema": SCHEMA, **data}, key))


def deck_message(registry: DeckRegistry, name: str, table: str, at: str,
                 key: str | None) -> tuple[str, bytes]:
    """The retained message that shares deck `name` (DeckError if there is no such deck),
    signed with the fleet key (ValueError without one)."""
    deck = registry.deck(name)
    return shared_deck_topic(name), _signed({"table": table, "at": at, "deck": name,
                                             "family": deck.family,
                                             "text": registry.export(name)}, key)


def staff_message(registry: DeckRegistry, table: str, at: str,
                  key: str | None) -> tuple[str, bytes]:
    """The staff list, each tag as its keyed hash: the raw UIDs never leave the table."""
    staff = registry.staff()
    if not staff:
        raise DeckError("no staff cards here: tabletop deck staff add UID LABEL")
    if not key:
        raise ValueError("sharing needs the café's fleet key: set fleet.key in the config")
    hashed = {staff_hash(key, uid): label for uid, label in staff.items()}
    return SHARED_STAFF, _signed({"table": table, "at": at, "staff": hashed}, key)


def roster_message(roster: Roster, table: str, at: str, key: str | None) -> tuple[str, bytes]:
    """The retained message that shares this table's roster, as its file holds it."""
    players = roster.players()
    if not players:
        raise RosterError("no players here: tabletop players add NAME")
    if not key:
        raise ValueError("sharing needs the café's fleet key: set fleet.key in the config")
    return SHARED_PLAYERS, _signed({"table": table, "at": at, "roster": roster_text(players)}, key)


Shared = SharedDeck | SharedStaff | SharedRoster


def read_shared(topic: str, payload: bytes, key: str | None) -> Shared | None:
    """What a shared topic holds; None for an emptied topic or a payload that does not check
    or is not signed with the café's key (logged)."""
    if not payload:
        return None                       # withdrawn
    data = decode(payload, topic)
    if data is None or not isinstance(data.get("table"), str) or not authentic(data, key, topic):
        return None
    name = shared_deck_of(topic)
    if name is not None and isinstance(data.get("text"), str):
        try:
            deck = parse_deck(data["text"], name)
        except DeckError:
            return None
        return SharedDeck(name, deck.family, data["table"], data["text"])
    if topic == SHARED_PLAYERS and isinstance(data.get("roster"), str):
        try:
            return SharedRoster(data["table"], tuple(parse_roster(data["roster"])))
        except RosterError as exc:
            log.warning("fleet: refused the roster shared by %.40s: %s", data["table"], exc)
            return None
    staff = data.get("staff")
    if topic == SHARED_STAFF and isinstance(staff, dict):
        return SharedStaff(data["table"], tuple(sorted((str(uid), str(label)) for uid, label in staff.items())))
    return None


def new_staff(registry: DeckRegistry, shared: SharedStaff, key: str) -> dict[str, str]:
    """The shared staff cards this table does not have yet (nor holds waiting for a tap)."""
    have = {staff_hash(key, uid) for uid in registry.staff()}
    have |= set(StaffRoll(registry.state_dir).pending())
    return {h: label for h, label in shared.cards if h not in have}


def import_deck(registry: DeckRegistry, shared: SharedDeck, replace: bool = False):
    return registry.import_text(shared.text, shared.name, replace)


def import_staff(registry: DeckRegistry, shared: SharedStaff, key: str) -> int:
    """Put the new staff cards on the roll: each becomes staff here at its first tap
    (`enrol_tapped`). How many were added."""
    new = new_staff(registry, shared, key)
    StaffRoll(registry.state_dir).add(new)
    return len(new)


def enrol_tapped(registry: DeckRegistry, key: str, uid: str) -> str | None:
    """A tag no deck knows, tapped: its label if it was on the roll and is staff now."""
    label = StaffRoll(registry.state_dir).claim(key, uid)
    if label is None:
        return None
    try:
        registry.add_staff(uid, label)
    except (TagTaken, DeckError) as exc:
        log.warning("fleet: staff card %s not added: %s", label, exc)
        return None
    return label


class Inbox:
    """What the tables share, as heard on the broker (paho's thread writes, the game reads)."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self._lock = threading.Lock()
        self._heard: dict[str, Shared] = {}
        self._dismissed: set[str] = set()
        self.refused = 0                  # shared messages that did not check (the log is hushed)
        self._last: dict[str, bytes] = {}  # topic -> digest of the last message heard there

    def receive(self, topic: str, payload: bytes) -> None:
        """Check a shared message; one heard just before on its topic keeps its verdict
        unchecked (a flood repeats one message: parsing and checking each costs the table's
        loop its processor)."""
        digest = hashlib.blake2b(payload, digest_size=16).digest()
        with self._lock:
            if self._last.get(topic) == digest:
                self.refused += bool(payload) and topic not in self._heard
                return
        shared = read_shared(topic, payload, self.key)
        with self._lock:
            self.refused += bool(payload) and shared is None
            if shared is None:
                self._heard.pop(topic, None)
            else:
                self._heard[topic] = shared
            if topic not in self._last and len(self._last) >= REMEMBERED:
                self._last.pop(next(iter(self._last)))
            self._last[topic] = digest

    def next_offer(self, registry: DeckRegistry, table: str) -> SharedDeck | SharedStaff | None:
        """A deck or staff list another table shares, that this table lacks and did not decline."""
        with self._lock:
            heard = list(self._heard.values())
        installed = {info.name for info in registry.decks()}
        for shared in heard:
            if shared.table == table or _key(shared) in self._dismissed:
                continue
            if isinstance(shared, SharedDeck) and shared.name not in installed:
                return shared
            if isinstance(shared, SharedStaff) and self.key is not None \
                    and new_staff(registry, shared, self.key):
                return shared
        return None

    def dismiss(self, shared: Shared) -> None:
        """Offer it no more (until it changes)."""
        self._dismissed.add(_key(shared))

    def new_roster(self, table: str) -> SharedRoster | None:
        """The roster another table shares, once each time it changes."""
        with self._lock:
            shared = self._heard.get(SHARED_PLAYERS)
        if not isinstance(shared, SharedRoster) or shared.table == table \
                or _key(shared) in self._dismissed:
            return None
        self.dismiss(shared)
        return shared


def merge_roster(registry: DeckRegistry, shared: SharedRoster) -> list[str]:
    """Another table's roster into this one's (device/players/roster.py `merge`): a tag of a
    deck or a staff card here is no player card."""
    return Roster(registry.state_dir).merge(list(shared.players),
                                            taken=lambda uid: registry.lookup(uid) is not None)


def _key(shared: Shared) -> str:
    return hashlib.sha256(repr(shared).encode()).hexdigest()
