"""A signed fleet message: who says it, on which topic, its counter, its time, its signature.

    {"schema": 1, ..., "at": "<time>", "publisher": "table-3", "topic": "tabletop/table-3/state",
     "counter": 1765061234567, "sig": "<Ed25519 signature, hex>"}

`sig` signs the canonical JSON of everything else (keys sorted, no spaces, UTF-8), so the
topic is inside the signature: a message moved to another topic (a deck republished under
another name, a table's state under another table) is refused. Who may sign a topic is
`Trust`'s to say: the café's admin key signs the shared topics, each table's key its own
topics. The counter only grows per publisher (counter.py); a receiver keeps the highest it
took per publisher and topic (freshness.py) and refuses anything not newer.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from . import keys
from .counter import Counter
from .freshness import NEW, REPEAT, Freshness
from .topics import ROOT, SCHEMA, SHARED, check, table_of

ADMIN = "@admin"                 # the café's publisher: no table name starts with @
FIELDS = ("publisher", "topic", "counter", "sig")


class Refused(ValueError):
    """Not a message to take: why, in a few words; `publisher` when its signature checked."""

    def __init__(self, why: str, publisher: str | None = None) -> None:
        super().__init__(why)
        self.publisher = publisher


def canonical(data: dict) -> bytes:
    # a lone surrogate (JSON can escape one) is no UTF-8: kept as is, so any text has one form
    return json.dumps(data, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8", "surrogatepass")


@dataclass
class Signer:
    """A publisher's key and counter: `seal` makes a message of `data` for `topic`."""

    private: object
    publisher: str
    counter: Counter

    def seal(self, topic: str, data: dict) -> bytes:
        payload = {"schema": SCHEMA, **{k: v for k, v in data.items() if k not in FIELDS},
                   "publisher": self.publisher, "topic": topic, "counter": self.counter.next()}
        payload["sig"] = self.private.sign(canonical(payload)).hex()        # type: ignore[attr-defined]
        return json.dumps(payload, ensure_ascii=False, sort_keys=True).encode()

    @classmethod
    def table(cls, state_dir: Path, table: str) -> Signer:
        """This table's signer, its key made at the first start."""
        return cls(keys.make(state_dir, keys.TABLE), table, Counter(state_dir))

    @classmethod
    def admin(cls, state_dir: Path) -> Signer:
        """The café's signer (KeyMissing away from the café's machine)."""
        return cls(keys.needed(state_dir, keys.ADMIN), ADMIN, Counter(state_dir))


def shared_topic(topic: str) -> bool:
    return topic.startswith(f"{ROOT}/{SHARED}/")


@dataclass
class Trust:
    """Whose signature counts where: the café's public key for the shared topics, and the
    enrolled tables' keys (from the café's signed list of tables) for their own topics."""

    admin: object | None
    tables: dict[str, object] = field(default_factory=dict)
    seen: Freshness | None = None

    @classmethod
    def of(cls, admin_key: str | None, seen: Freshness | None) -> Trust:
        return cls(keys.public_key(admin_key) if admin_key else None, {}, seen)

    def key_for(self, topic: str, publisher: str):
        if shared_topic(topic):
            if publisher != ADMIN:
                raise Refused("shared data not signed by the café's admin key")
            if self.admin is None:
                raise Refused("no admin key here to check it (fleet.admin_key)")
            return self.admin
        where = table_of(topic)
        if where is None or publisher != where[0]:
            raise Refused("signed by another publisher than its topic's table")
        found = self.tables.get(publisher)
        if found is None:
            raise Refused("from a table the café's list does not enrol")
        return found

    def open(self, topic: str, payload: bytes) -> tuple[dict, str]:
        """The message's data and NEW or REPEAT; Refused for anything else."""
        data, why = check(payload)
        if data is None:
            raise Refused(why or "not a message")
        publisher, signed_for, counter = data.get("publisher"), data.get("topic"), data.get("counter")
        if not isinstance(publisher, str) or not isinstance(signed_for, str) \
                or isinstance(counter, bool) or not isinstance(counter, int) or counter < 0:
            raise Refused("unsigned")
        if signed_for != topic:
            raise Refused("signed for another topic")
        public = self.key_for(topic, publisher)
        unsigned = {k: v for k, v in data.items() if k != "sig"}
        if not keys.verified(public, data.get("sig"), canonical(unsigned)):
            raise Refused("badly signed")
        verdict = NEW if self.seen is None else self.seen.admit(publisher, topic, counter, payload)
        if verdict not in (NEW, REPEAT):
            raise Refused(f"not newer than what {publisher} said before on it (a replay)",
                          publisher)
        return data, verdict
