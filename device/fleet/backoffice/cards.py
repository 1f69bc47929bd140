"""A player card given by a tap at a table, from the back office (device/fleet/claim.py).

Staff choose a player and an enrolled table: the café's signed request goes to that table,
which shows "Tap the card for Ann" and sends back the UID of its next unknown tap, signed
with its own key. The answer is checked here (the table's key from the café's list of
enrolled tables, its counter newer than any before, the request still waiting) and offered
to staff; only their confirmation gives the card, as `tabletop players card` gives one, and
the roster then goes to every table as `tabletop players publish` sends it.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from device.decks.deck_file import DeckError, normalize_uid
from device.decks.registry import DeckRegistry, TagTaken
from device.fleet.claim import ANSWER, Claims, claim_topic, read_answer, request_message
from device.fleet.claim import Request as Asked
from device.fleet.enrolled import Enrolled
from device.fleet.envelope import Refused as NotTaken
from device.fleet.envelope import Signer
from device.fleet.freshness import Freshness
from device.fleet.keys import KeyMissing
from device.fleet.link import Link, unique_id
from device.players.roster import Roster, RosterError

from .api import off
from .forms import Refused, answer, fields

log = logging.getLogger(__name__)

ANSWERS = claim_topic("+", ANSWER)             # every table's answers, for the link


class CardDesk:
    """The café's requests and the answers offered; `send` publishes one message (QoS 1)."""

    def __init__(self, state_dir: Path, send: Callable[[str, bytes], None],
                 now_s: Callable[[], float] = time.monotonic) -> None:
        self.state_dir, self.send = Path(state_dir), send
        self.claims = Claims(now_s)
        self.seen = Freshness.at(self.state_dir)

    def ask(self, table: str, name: str) -> Asked:
        """The request sent to `table` for `name`'s card; RosterError or KeyMissing, nothing sent."""
        if table not in Enrolled(self.state_dir).tables():
            raise RosterError(f"{table!r} is not an enrolled table (tabletop fleet enrol)")
        player = Roster(self.state_dir).find(name)
        topic, payload, asked = request_message(Signer.admin(self.state_dir), table, player.name)
        self.send(topic, payload)
        self.claims.asked(asked)
        return asked

    def receive(self, topic: str, payload: bytes) -> str | None:
        """A table's answer, offered to staff; refused in one log line (who, for the floodgate)."""
        try:
            offer = self.claims.answered(read_answer(topic, payload, Enrolled(self.state_dir).tables(),
                                                     self.seen))
        except NotTaken as exc:
            log.warning("fleet: refused a card answer on %.80s: %s", topic, exc)
            return "?"
        log.info("fleet: %s tapped %s for %s: waiting for staff", offer.table, offer.uid, offer.player)
        return None

    def confirm(self, table: str, uid: str) -> dict:
        """The card offered by `table` given to its player, as `tabletop players card` does."""
        try:
            offer = self.claims.take(table, normalize_uid(uid))
        except NotTaken as exc:
            raise RosterError(str(exc)) from None
        owner = DeckRegistry(self.state_dir).lookup(offer.uid)
        if owner is not None:
            raise RosterError(str(TagTaken(offer.uid, owner)))
        player = Roster(self.state_dir).give_card(offer.uid, offer.player)
        return {"name": player.name, "short": player.short, "cards": list(player.cards)}

    def view(self) -> dict:
        return {"waiting": [{"table": r.table, "player": r.player} for r in self.claims.waiting()],
                "offers": [{"table": o.table, "player": o.player, "uid": o.uid}
                           for o in self.claims.offers()]}


def card_desk(settings, state_dir: Path) -> tuple[CardDesk, Link]:
    """The desk, and its own link to the broker (the answers in, the requests out), started
    at the first request: a dashboard that never asks holds no connection for it."""
    started = threading.Event()
    lock = threading.Lock()

    def send(topic: str, payload: bytes) -> None:
        with lock:
            if not started.is_set():
                link.start()
                started.set()
        link.publish(topic, payload)
    desk = CardDesk(state_dir, send)
    link = Link(settings, unique_id("tabletop-cards"), subscriptions=(ANSWERS,), on_message=desk.receive)
    return desk, link


def card_routes(office, desk: CardDesk, share: Callable[[], dict] | None) -> list[Route]:
    """GET /api/cards, POST /api/cards/ask {name, table}, POST /api/cards/confirm {table, uid}."""
    async def cards(request: Request) -> Response:
        return answer(200, desk.view())

    async def ask(request: Request) -> Response:
        return await _change(request, {"name": str, "table": str},
                             lambda f: _asked(desk.ask(f["table"], f["name"])))

    async def confirm(request: Request) -> Response:
        def give(f: dict) -> dict:
            done = desk.confirm(f["table"], f["uid"])
            return {**done, **share()} if share is not None else done
        return await _change(request, {"table": str, "uid": str}, give)

    return [Route("/api/cards", office.staff(cards)),
            Route("/api/cards/ask", office.staff(ask, change=True), methods=["POST"]),
            Route("/api/cards/confirm", office.staff(confirm, change=True), methods=["POST"])]


def _asked(request: Asked) -> dict:
    return {"asked": request.table, "player": request.player, "for_s": request.for_s}


async def _change(request: Request, wanted: dict[str, type], change: Callable[[dict], dict]) -> Response:
    try:
        given = await fields(request, wanted)
        return answer(200, await off(change, given))
    except Refused as exc:
        return answer(exc.status, {"error": exc.error})
    except (RosterError, DeckError, TagTaken, KeyMissing) as exc:
        return answer(400, {"error": str(exc)})
    except OSError as exc:
        return answer(500, {"error": f"the dashboard's state dir cannot be written: {exc.strerror or exc}"})
