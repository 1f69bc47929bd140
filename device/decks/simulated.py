"""The simulator's decks: one complete deck per family, with stable UIDs.

`tap CARD_ID` in simulator input becomes the card's sim UID, so it takes the same path
through the deck registry as a real tag.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache

from engine.core.registry import canonical_card, decks_of

from .deck_file import SIM_PREFIX, Deck, DeckError, Family, families, normalize_uid
from .registry import CardRef, DeckInfo, DeckRegistry, StaffRef

SIM_STAFF = ("staff#1", "staff#2", "staff#3")



@lru_cache(maxsize=4096)      # each table's sim decks name every card of every family
def sim_uid(family: str, card: str) -> str:
    """A stable 7-byte UID for a simulated card: 04 (NXP, as on NTAG stickers) + 6 hash bytes."""
    return "04" + hashlib.sha256(f"{family}:{card}".encode()).hexdigest()[:12].upper()


@lru_cache(maxsize=64)        # each table's sim decks hold every card of every family
def _sim_deck(family: Family) -> tuple[Deck, dict[str, CardRef]]:
    name = SIM_PREFIX + family.name
    tags = {sim_uid(family.name, c): c for c in family.cards + family.extras}
    return Deck(name, family.name, tags), {uid: CardRef(name, family.name, c)
                                           for uid, c in tags.items()}


class SimDecks:
    """A registry view with one complete deck per family, `sim-<family>`, and staff#1..3.

    `tap CARD_ID` in simulator input becomes `self.sim_uid(CARD_ID)`, so it takes the UID path
    like a real tag. Decks of `base` (the state dir's registry) are seen too.
    """

    def __init__(self, base: DeckRegistry | None = None):
        self.base = base
        self._owners: dict[str, CardRef | StaffRef] = {}
        self._decks: dict[str, Deck] = {}
        for family in families().values():
            deck, owners = _sim_deck(family)
            self._decks[deck.name] = Deck(deck.name, deck.family, dict(deck.tags))
            self._owners.update(owners)
        for staff in SIM_STAFF:
            self._owners[sim_uid("staff", staff)] = StaffRef(staff)

    @property
    def problems(self) -> list[str]:
        return self.base.problems if self.base else []

    def sim_uid(self, card: str) -> str | None:
        """The sim UID of a card id of any family (they do not overlap), or of staff#n."""
        if card.lower() in SIM_STAFF:
            return sim_uid("staff", card.lower())
        canonical = canonical_card(card)
        owners = sorted(decks_of(canonical)) if canonical else []
        return sim_uid(owners[0], canonical) if len(owners) == 1 and canonical else None

    def lookup(self, uid: str) -> CardRef | StaffRef | None:
        try:
            found = self._owners.get(normalize_uid(uid))
        except DeckError:
            return None
        return found if found or self.base is None else self.base.lookup(uid)

    def decks(self) -> list[DeckInfo]:
        sim = [DeckInfo(d.name, d.family, len(d.tags), ()) for d in self._decks.values()]
        return sim + (self.base.decks() if self.base else [])

    def deck(self, name: str) -> Deck:
        if name in self._decks:
            return self._decks[name]
        if self.base is None:
            raise DeckError(f"no deck named {name!r}")
        return self.base.deck(name)

    def info(self, name: str) -> DeckInfo:
        if name in self._decks or self.base is None:
            deck = self.deck(name)
            return DeckInfo(name, deck.family, len(deck.tags), ())
        return self.base.info(name)
