"""A player card given by a tap at any table: the café asks, the table's next unknown tap answers.

    tabletop/<table>/claim     the café -> the table: "the next unknown tag tapped here is
                               <player>'s card"; signed with the café's admin key
    tabletop/<table>/claimed   the table -> the café: the UID tapped, signed with the table's key

Neither is retained: a request lives `for_s` seconds (WAIT_S) and the table counts them on
its own clock from when it takes it; one whose counter (the café's time in ms) is already
older than that by the table's wall clock was held back somewhere and is refused, like one
from further in the future than that. Both are signed with their topic inside the signature
and carry a counter that must grow (envelope.py, freshness.py): a replayed or moved message is
refused. The answer names the request's counter, so the café offers only the UID of a
request it made and still waits for; staff confirm it before the roster changes.
"""
from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from device.decks.deck_file import DeckError, normalize_uid
from device.players.roster import RosterError, check_name

from . import keys
from .envelope import ADMIN, Refused, Signer, canonical
from .freshness import NEW, Freshness
from .topics import ROOT, SHARED, check

log = logging.getLogger(__name__)

REQUEST, ANSWER = "claim", "claimed"
WAIT_S = 120                  # long enough to walk to the table, short enough to forget
MOST_S = 600


def claim_topic(table: str, kind: str) -> str:
    assert kind in (REQUEST, ANSWER), kind
    return f"{ROOT}/{table}/{kind}"


def claim_of(topic: str) -> tuple[str, str] | None:
    """(table, REQUEST or ANSWER) of a claim topic; None for any other topic."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and parts[1] not in (SHARED, "") \
            and parts[2] in (REQUEST, ANSWER):
        return parts[1], parts[2]
    return None


@dataclass(frozen=True)
class Request:
    table: str
    player: str
    counter: int              # the café's: also the request's name in its answer
    for_s: int


@dataclass(frozen=True)
class Answer:
    table: str
    player: str
    uid: str
    request: int              # the counter of the request it answers


def request_message(signer: Signer, table: str, player: str,
                    for_s: int = WAIT_S) -> tuple[str, bytes, Request]:
    """The café's signed request: its topic, its payload and what it asks."""
    topic = claim_topic(table, REQUEST)
    payload = signer.seal(topic, {"table": table, "player": player, "for_s": for_s})
    return topic, payload, Request(table, player, _counter_of(payload), for_s)


def answer_message(signer: Signer, request: Request, uid: str) -> tuple[str, bytes]:
    """The table's signed answer: the UID of its next unknown tap."""
    topic = claim_topic(request.table, ANSWER)
    return topic, signer.seal(topic, {"table": request.table, "player": request.player,
                                      "uid": uid, "request": request.counter})


def _counter_of(payload: bytes) -> int:
    data, _ = check(payload)
    assert data is not None
    return int(data["counter"])


def open_signed(topic: str, payload: bytes, publisher: str, public, seen: Freshness | None) -> dict:
    """The data of a message `publisher` signed for `topic` with `public`, newer than any
    before it; Refused otherwise (a repeat too: a claim is acted on once)."""
    data, why = check(payload)
    if data is None:
        raise Refused(why or "not a message")
    counter = data.get("counter")
    if data.get("publisher") != publisher or isinstance(counter, bool) \
            or not isinstance(counter, int) or counter < 0:
        raise Refused(f"not signed by {publisher}")
    if data.get("topic") != topic:
        raise Refused("signed for another topic")
    if public is None:
        raise Refused(f"no key here to check {publisher}'s signature")
    if not keys.verified(public, data.get("sig"), canonical({k: v for k, v in data.items()
                                                              if k != "sig"})):
        raise Refused("badly signed")
    if seen is not None and seen.admit(publisher, topic, counter, payload) != NEW:
        raise Refused(f"not newer than what {publisher} said before on it (a replay)")
    return data


def _player(data: dict) -> str:
    try:
        return check_name(data.get("player"))
    except RosterError as exc:
        raise Refused(str(exc)[:120]) from None


def read_request(table: str, topic: str, payload: bytes, admin_public,
                 seen: Freshness | None, now_ms: int) -> Request:
    """The café's request to this table, checked; Refused for anything else."""
    if topic != claim_topic(table, REQUEST):
        raise Refused("not this table's claim topic")
    data = open_signed(topic, payload, ADMIN, admin_public, seen)
    for_s = data.get("for_s")
    if data.get("table") != table:
        raise Refused("for another table")
    if isinstance(for_s, bool) or not isinstance(for_s, int) or not 0 < for_s <= MOST_S:
        raise Refused(f"its wait is not 1 to {MOST_S} seconds")
    if abs(now_ms - data["counter"]) > for_s * 1000:
        raise Refused("expired (or from the future) by this table's clock")
    return Request(table, _player(data), data["counter"], for_s)


def read_answer(topic: str, payload: bytes, tables: dict[str, str],
                seen: Freshness | None) -> Answer:
    """A table's answer, checked against the café's list of enrolled tables (name -> public
    key in hex); Refused for anything else. Whether it answers a request still waiting is
    the asker's to say (Claims)."""
    where = claim_of(topic)
    if where is None or where[1] != ANSWER:
        raise Refused("not a claim answer's topic")
    table = where[0]
    if table not in tables:
        raise Refused(f"{table!r} is not an enrolled table")
    data = open_signed(topic, payload, table, keys.public_key(tables[table]), seen)
    request = data.get("request")
    if data.get("table") != table or isinstance(request, bool) or not isinstance(request, int):
        raise Refused("not an answer of its table")
    try:
        uid = normalize_uid(str(data.get("uid")) if isinstance(data.get("uid"), str) else "")
    except DeckError as exc:
        raise Refused(str(exc)[:120]) from None
    return Answer(table, _player(data), uid, request)


def wall_ms_of(wall: str) -> int:
    """A wall clock's ISO time in ms, as counters count (the table's clock is ISO text)."""
    return int(datetime.datetime.fromisoformat(wall).timestamp() * 1000)


def heard_by(shared: Callable[[str, bytes], str | None],
             claims: Callable[[str, bytes], str | None]) -> Callable[[str, bytes], str | None]:
    """The table's handler of what it hears: its claim topic's requests, or what is shared."""
    def heard(topic: str, payload: bytes) -> str | None:
        where = claim_of(topic)
        return claims(topic, payload) if where is not None and where[1] == REQUEST \
            else shared(topic, payload)
    return heard


class ClaimBox:
    """The table's side: the latest request the café made of this table, checked on the
    link's thread and taken on the table's (`take`), with its age by the table's wall clock."""

    def __init__(self, table: str, admin_key: str | None, seen: Freshness | None,
                 wall_ms: Callable[[], int]) -> None:
        self.table, self.seen, self.wall_ms = table, seen, wall_ms
        self.admin = keys.public_key(admin_key) if admin_key else None
        self._lock = threading.Lock()
        self._latest: tuple[Request, int] | None = None

    def receive(self, topic: str, payload: bytes) -> str | None:
        """None once taken; who sent it (for the floodgate) when refused, in one log line."""
        now = self.wall_ms()
        try:
            request = read_request(self.table, topic, payload, self.admin, self.seen, now)
        except Refused as exc:
            log.warning("fleet: refused a card request on %.80s: %s", topic, exc)
            return ADMIN
        with self._lock:
            self._latest = (request, now)
        log.info("fleet: the café asks for %s's card at this table", request.player)
        return None

    def take(self) -> tuple[Request, float] | None:
        """The request waiting, and the seconds it has left by the table's clock (None when
        none waits, or its time is up)."""
        with self._lock:
            latest, self._latest = self._latest, None
        if latest is None:
            return None
        request, _ = latest
        left = request.for_s - max(0, self.wall_ms() - request.counter) / 1000
        return (request, left) if left > 0 else None


@dataclass(frozen=True)
class Offer:
    """A UID a table sent back for a request, waiting for staff to confirm it."""
    table: str
    player: str
    uid: str


class Claims:
    """The café's side: one request waiting per table, its answer offered to staff until they
    confirm it or it expires. `now_s` is the café machine's monotonic clock."""

    def __init__(self, now_s) -> None:
        self.now_s = now_s
        self._waiting: dict[str, tuple[Request, float]] = {}     # table -> (request, until)
        self._offers: dict[str, Offer] = {}

    def asked(self, request: Request) -> None:
        """A request sent: it replaces any other for its table, and its offer."""
        self._waiting[request.table] = (request, self.now_s() + request.for_s)
        self._offers.pop(request.table, None)

    def answered(self, answer: Answer) -> Offer:
        """The offer an answer makes; Refused unless it answers the request its table waits on."""
        waiting = self._waiting.get(answer.table)
        if waiting is None or waiting[1] <= self.now_s():
            self._waiting.pop(answer.table, None)
            raise Refused(f"{answer.table} was asked for no card (or no longer)")
        request = waiting[0]
        if (answer.request, answer.player) != (request.counter, request.player):
            raise Refused("answers another request than the one waiting")
        offer = Offer(answer.table, answer.player, answer.uid)
        self._offers[answer.table] = offer
        return offer

    def offers(self) -> list[Offer]:
        """The UIDs staff may confirm, of requests not yet expired."""
        now = self.now_s()
        for table in [t for t, (_, until) in self._waiting.items() if until <= now]:
            del self._waiting[table]
            self._offers.pop(table, None)
        return sorted(self._offers.values(), key=lambda o: o.table)

    def waiting(self) -> list[Request]:
        self.offers()
        return sorted((r for r, _ in self._waiting.values()), key=lambda r: r.table)

    def take(self, table: str, uid: str) -> Offer:
        """The offer staff confirm (then gone, its request with it); Refused if none is offered."""
        offer = next((o for o in self.offers() if o.table == table and o.uid == uid), None)
        if offer is None:
            raise Refused(f"no card {uid} offered by {table}")
        del self._offers[table], self._waiting[table]
        return offer
