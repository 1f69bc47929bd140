"""Decks and staff cards shared between the café's tables through the broker.

A table publishes a deck file (`tabletop deck publish NAME`) or its staff list (`tabletop
deck staff publish`) as a retained message under tabletop/shared/. Every other table
hears it; one that lacks it offers the import at idle, and a staff card's tap confirms
it (device/fleet_ui.py); staff at a terminal use `tabletop fleet import-deck NAME`.
"""
from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

from device.decks.registry import DeckError, DeckRegistry, TagTaken, parse_deck

from .topics import SHARED_STAFF, decode, encode, shared_deck_of, shared_deck_topic


@dataclass(frozen=True)
class SharedDeck:
    name: str
    family: str
    table: str                        # who published it
    text: str                         # the deck file, as `tabletop deck export` prints it


@dataclass(frozen=True)
class SharedStaff:
    table: str
    cards: tuple[tuple[str, str], ...]  # (UID, label)


def deck_message(registry: DeckRegistry, name: str, table: str, at: str) -> tuple[str, bytes]:
    """The retained message that shares deck `name` (DeckError if there is no such deck)."""
    deck = registry.deck(name)
    return shared_deck_topic(name), encode({"table": table, "at": at, "deck": name,
                                            "family": deck.family, "text": registry.export(name)})


def staff_message(registry: DeckRegistry, table: str, at: str) -> tuple[str, bytes]:
    staff = registry.staff()
    if not staff:
        raise DeckError("no staff cards here: tabletop deck staff add UID LABEL")
    return SHARED_STAFF, encode({"table": table, "at": at, "staff": staff})


def read_shared(topic: str, payload: bytes) -> SharedDeck | SharedStaff | None:
    """What a shared topic holds; None for an emptied topic or a payload that does not check."""
    data = decode(payload)
    if data is None or not isinstance(data.get("table"), str):
        return None
    name = shared_deck_of(topic)
    if name is not None and isinstance(data.get("text"), str):
        try:
            deck = parse_deck(data["text"], name)
        except DeckError:
            return None
        return SharedDeck(name, deck.family, data["table"], data["text"])
    staff = data.get("staff")
    if topic == SHARED_STAFF and isinstance(staff, dict):
        return SharedStaff(data["table"], tuple(sorted((str(u), str(l)) for u, l in staff.items())))
    return None


def new_staff(registry: DeckRegistry, shared: SharedStaff) -> dict[str, str]:
    """The shared staff cards this table does not have yet."""
    have = registry.staff()
    return {uid: label for uid, label in shared.cards if uid not in have}


def import_deck(registry: DeckRegistry, shared: SharedDeck, replace: bool = False):
    return registry.import_text(shared.text, shared.name, replace)


def import_staff(registry: DeckRegistry, shared: SharedStaff) -> tuple[int, list[str]]:
    """Add the new staff cards; a tag that is a card of a deck here is skipped and named."""
    added, skipped = 0, []
    for uid, label in new_staff(registry, shared).items():
        try:
            registry.add_staff(uid, label)
            added += 1
        except (TagTaken, DeckError) as exc:
            skipped.append(str(exc))
    return added, skipped


class Inbox:
    """What the tables share, as heard on the broker (paho's thread writes, the game reads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._heard: dict[str, SharedDeck | SharedStaff] = {}
        self._dismissed: set[str] = set()

    def receive(self, topic: str, payload: bytes) -> None:
        shared = read_shared(topic, payload)
        with self._lock:
            if shared is None:
                self._heard.pop(topic, None)
            else:
                self._heard[topic] = shared

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
            if isinstance(shared, SharedStaff) and new_staff(registry, shared):
                return shared
        return None

    def dismiss(self, shared: SharedDeck | SharedStaff) -> None:
        """Offer it no more (until it changes)."""
        self._dismissed.add(_key(shared))


def _key(shared: SharedDeck | SharedStaff) -> str:
    return hashlib.sha256(repr(shared).encode()).hexdigest()
