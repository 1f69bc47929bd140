"""Decks, staff cards, the roster and the list of tables, shared by the café through the broker.

The café's machine publishes a deck file (`tabletop deck publish NAME`), its staff list
(`tabletop deck staff publish`), its roster (`tabletop players publish`) and the tables it
enrolled (`tabletop fleet enrol`), each a retained message under tabletop/shared/, signed
with the café's admin key (envelope.py). Every table hears them; one that lacks a deck or a
staff card offers the import at idle, and a staff card's tap confirms it (screens.py). The
latest staff list and roster are the café's word: what they no longer name is taken back on
every table (named.py). A roster is merged as it is heard: names are no privilege.
"""
from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass

from device.decks.deck_file import DeckError, parse_deck
from device.decks.registry import DeckRegistry, TagTaken
from device.players.roster import Player, Roster, RosterError, parse_roster, roster_text

from . import keys
from .envelope import ADMIN, Refused, Signer, Trust
from .freshness import NEW
from .named import Named
from .signing import StaffRoll, staff_hash
from .topics import SHARED_PLAYERS, SHARED_STAFF, SHARED_TABLES, shared_deck_of, shared_deck_topic

log = logging.getLogger(__name__)


REMEMBERED = 256              # topics whose last message is remembered: any client can add one
UNKNOWN = "?"                 # a refused message's publisher when it names none that checks


@dataclass(frozen=True)
class SharedDeck:
    name: str
    family: str
    table: str                        # the machine that shared it
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


@dataclass(frozen=True)
class SharedTables:
    table: str
    tables: tuple[tuple[str, str], ...]   # (table name, its public key in hex)


def deck_message(registry: DeckRegistry, name: str, table: str, at: str,
                 signer: Signer) -> tuple[str, bytes]:
    """The retained message that shares deck `name` (DeckError if there is no such deck)."""
    deck = registry.deck(name)
    topic = shared_deck_topic(name)
    return topic, signer.seal(topic, {"table": table, "at": at, "deck": name,
                                      "family": deck.family, "text": registry.export(name)})


def staff_message(registry: DeckRegistry, table: str, at: str, tag_key: str | None,
                  signer: Signer) -> tuple[str, bytes]:
    """The staff list, each tag as its keyed hash: the raw UIDs never leave the machine. An
    empty list is a list too: it takes every staff card the café gave back."""
    if not tag_key:
        raise ValueError("staff lists need the café's tag key: set fleet.key in the config")
    hashed = {staff_hash(tag_key, uid): label for uid, label in registry.staff().items()}
    return SHARED_STAFF, signer.seal(SHARED_STAFF, {"table": table, "at": at, "staff": hashed})


def roster_message(roster: Roster, table: str, at: str, signer: Signer) -> tuple[str, bytes]:
    """The retained message that shares this machine's roster, as its file holds it."""
    return SHARED_PLAYERS, signer.seal(SHARED_PLAYERS, {"table": table, "at": at,
                                                        "roster": roster_text(roster.players())})


def tables_message(tables: dict[str, str], table: str, at: str,
                   signer: Signer) -> tuple[str, bytes]:
    """The enrolled tables and their public keys: a table left out is struck off."""
    return SHARED_TABLES, signer.seal(SHARED_TABLES, {"table": table, "at": at,
                                                      "tables": dict(sorted(tables.items()))})


Shared = SharedDeck | SharedStaff | SharedRoster | SharedTables


def read_shared(topic: str, payload: bytes, trust: Trust) -> tuple[Shared, str]:
    """What a shared topic holds, and whether it is new or a repeat; Refused for anything
    unsigned, not signed by the café, older than what was taken, or not what its topic says."""
    data, verdict = trust.open(topic, payload)
    table = data.get("table")
    if not isinstance(table, str):
        raise Refused("names no table")
    return _shared(topic, data, table), verdict


def _shared(topic: str, data: dict, table: str) -> Shared:
    name = shared_deck_of(topic)
    if name is not None:
        if data.get("deck") != name or not isinstance(data.get("text"), str):
            raise Refused("not the deck its topic names")
        try:
            deck = parse_deck(data["text"], name)
        except DeckError as exc:
            raise Refused(f"not a deck file: {exc}") from None
        return SharedDeck(name, deck.family, table, data["text"])
    if topic == SHARED_PLAYERS and isinstance(data.get("roster"), str):
        try:
            return SharedRoster(table, tuple(parse_roster(data["roster"])))
        except (RosterError, RecursionError) as exc:
            raise Refused(f"not a roster: {str(exc)[:120] or 'nested too deep'}") from None
    staff = data.get("staff")
    if topic == SHARED_STAFF and isinstance(staff, dict) and all(
            isinstance(v, str) for v in staff.values()):
        return SharedStaff(table, tuple(sorted(staff.items())))
    listed = data.get("tables")
    if topic == SHARED_TABLES and isinstance(listed, dict) and all(
            keys.public_key(v) is not None for v in listed.values()):
        return SharedTables(table, tuple(sorted(listed.items())))
    raise Refused("not what its topic holds")


def enrol_tables(trust: Trust, shared: SharedTables) -> None:
    """The café's latest list of tables is whose messages count: a table left out is struck off."""
    trust.tables = {name: keys.public_key(public) for name, public in shared.tables}


# ---- the café's word on this table -----------------------------------------------------------

def take_staff(registry: DeckRegistry, shared: SharedStaff, key: str) -> list[str]:
    """The café's latest staff list: a staff card it named before and names no more stops
    being one here, whether enrolled, waiting for its first tap, or added here. The labels
    taken back."""
    gone = Named(registry.state_dir).update("staff", {h for h, _ in shared.cards})
    roll = StaffRoll(registry.state_dir)
    taken = roll.drop(gone)
    for uid, label in registry.staff().items():
        if staff_hash(key, uid) in gone:
            registry.remove_staff(uid)
            taken.append(label)
    return taken


def revoked_staff(registry: DeckRegistry, key: str, uid: str) -> bool:
    """True for a tag the café's staff list named once and names no more."""
    return staff_hash(key, uid) in Named(registry.state_dir).taken_back("staff")


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


def merge_roster(registry: DeckRegistry, shared: SharedRoster) -> list[str]:
    """The café's roster into this table's (device/players/roster.py `merge`): the players and
    player cards it named before and names no more are taken back first; a tag of a deck or a
    staff card here is no player card."""
    named = Named(registry.state_dir)
    roster = Roster(registry.state_dir)
    gone_cards = named.update("cards", {uid for p in shared.players for uid in p.cards})
    gone_players = named.update("players", {p.name for p in shared.players})
    taken = roster.take_back(gone_cards, gone_players)
    added = roster.merge(list(shared.players), taken=lambda uid: registry.lookup(uid) is not None)
    return sorted(set(taken) | set(added))


# ---- as heard on a running table ---------------------------------------------------------------

class Inbox:
    """What the café shares, as heard on the broker (paho's thread writes, the game reads)."""

    def __init__(self, trust: Trust, key: str | None) -> None:
        self.trust, self.key = trust, key        # `key`: the café's tag key (staff hashes)
        self._lock = threading.Lock()
        self._heard: dict[str, Shared] = {}
        self._dismissed: set[str] = set()
        self._news: dict[str, Shared] = {}       # new staff lists and rosters, to take
        self._taken: set[bytes] = set()          # the lists taken this run, by digest
        self.refused = 0                  # shared messages that did not check (the log is hushed)
        # topic -> the digest of the last message heard there, whom its repeat counts for, and
        # whether it was refused
        self._last: dict[str, tuple[bytes, str | None, bool]] = {}

    def receive(self, topic: str, payload: bytes) -> str | None:
        """Check a shared message: None when it is taken as new, else whose message was not
        (UNKNOWN when nothing says), for the floodgate to count when it came live: refused, or
        a repeat of what was taken (taken again, as the retained one at each subscription, but
        not newer: a live storm of it is a flood too). A message heard just before on its topic
        keeps its verdict unchecked (a flood repeats one message: checking each costs the
        table's loop its processor)."""
        digest = hashlib.blake2b(payload, digest_size=16).digest()
        with self._lock:
            last = self._last.get(topic)
            if last is not None and last[0] == digest:
                self.refused += last[2]
                return last[1]
        verdict, again, refused = self._check(topic, payload)
        with self._lock:
            if topic not in self._last and len(self._last) >= REMEMBERED:
                self._last.pop(next(iter(self._last)))
            self._last[topic] = (digest, again, refused)
        return verdict

    def _check(self, topic: str, payload: bytes) -> tuple[str | None, str, bool]:
        """(who to count now, who to count when the same bytes come again, refused)."""
        if not payload:
            with self._lock:
                self._heard.pop(topic, None)      # withdrawn: no longer offered
            return UNKNOWN, UNKNOWN, False
        try:
            shared, verdict = read_shared(topic, payload, self.trust)
        except (Refused, RecursionError) as exc:
            with self._lock:
                self.refused += 1
            # counted; the log's Hush (device/cli/logs.py) writes a few such lines a minute
            log.warning("fleet: refused the shared data on %.80s: %s", topic,
                        str(exc) or "nested too deep")
            refused_by = getattr(exc, "publisher", None) or UNKNOWN
            return refused_by, refused_by, True
        with self._lock:
            self._heard[topic] = shared
            # the latest list, new or heard again: each message taken once a run (taking it is
            # idempotent; a list naming again what an earlier one named is a new message)
            mark = hashlib.blake2b(payload, digest_size=16).digest()
            if isinstance(shared, (SharedStaff, SharedRoster)) and mark not in self._taken:
                self._taken.add(mark)
                self._news[topic] = shared
        if isinstance(shared, SharedTables):
            enrol_tables(self.trust, shared)
        return (None if verdict == NEW else ADMIN), ADMIN, False

    def news(self) -> list[Shared]:
        """The staff lists and rosters newly taken, once each (for the table's thread)."""
        with self._lock:
            news, self._news = list(self._news.values()), {}
        return news

    def next_offer(self, registry: DeckRegistry, table: str) -> SharedDeck | SharedStaff | None:
        """A deck or staff list the café shares, that this table lacks and did not decline."""
        with self._lock:
            heard = list(self._heard.values())
        installed = {info.name for info in registry.decks()}
        for shared in heard:
            if _key(shared) in self._dismissed:
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


def _key(shared: Shared) -> str:
    return hashlib.sha256(repr(shared).encode()).hexdigest()
