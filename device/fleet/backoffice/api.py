"""The back office's data routes under /admin/api/ (docs/fleet.md lists them).

Reading: every table as the wall screen has it, the leaderboard, the history (JSON and CSV),
a player's page, the roster, the staff cards, the decks. Changing: players add, rename and
remove, staff cards add and revoke. Each goes through the very functions `tabletop players`
and `tabletop deck staff` use (the roster, the deck registry) on the dashboard's state dir, so
each field is checked as the command line checks it: one clear message (400), nothing
changed. With `sharing`, each change of the roster or of the staff cards is then sent to every
table (sharing.py), and a deck is shared on demand; the answer says whether it went. Each
table's house rules and language go to that table for its next game (defaults.py).
"""
from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import engine
from device.decks.deck_file import DeckError, normalize_uid
from device.decks.registry import DeckRegistry, TagTaken
from device.fleet.dashboard.board import Board
from device.fleet.dashboard.page import language_of, table_shown
from device.fleet.keys import KeyMissing
from device.players.roster import Player, Roster, RosterError, new_player
from device.storage.house_defaults import DefaultsRefused
from device.web.headers import PRIVATE

from . import leaderboard as boards
from .deck_gaps import lacking
from .defaults import DefaultsDesk
from .forms import Refused, answer, fields
from .history import History
from .office import BackOffice
from .sharing import Sharing, shared

Today = Callable[[], datetime.date]


class Api:
    def __init__(self, office: BackOffice, history: History, today: Today = datetime.date.today,
                 sharing: Sharing | None = None, board: Board | None = None) -> None:
        self.office, self.history, self.today, self.sharing = office, history, today, sharing
        self.board = board
        self.state_dir: Path = office.state_dir
        self.house = DefaultsDesk(self.state_dir, sharing.settings if sharing is not None else None)

    def routes(self) -> list[Route]:
        staff = self.office.staff
        read, change = (lambda handler: staff(handler)), (lambda handler: staff(handler, change=True))
        return [Route("/api/tables", read(self.tables)),
                Route("/api/leaderboard", read(self.leaderboard)),
                Route("/api/history", read(self.played)),
                Route("/api/history.csv", read(self.played_csv)),
                Route("/api/player", read(self.player)),
                Route("/api/players", read(self.players)),
                Route("/api/players/add", change(self.add_player), methods=["POST"]),
                Route("/api/players/rename", change(self.rename_player), methods=["POST"]),
                Route("/api/players/remove", change(self.remove_player), methods=["POST"]),
                Route("/api/players/card", change(self.give_card), methods=["POST"]),
                Route("/api/staff", read(self.staff)),
                Route("/api/staff/add", change(self.add_staff), methods=["POST"]),
                Route("/api/staff/revoke", change(self.revoke_staff), methods=["POST"]),
                Route("/api/decks", read(self.decks)),
                Route("/api/decks/lacking", read(self.decks_lacking)),
                Route("/api/decks/share", change(self.share_deck), methods=["POST"]),
                Route("/api/defaults", read(self.house_rules)),
                Route("/api/defaults/set", change(self.set_house_rules), methods=["POST"])]

    # ---- the tables and the history -----------------------------------------------------------

    async def tables(self, request: Request) -> Response:
        """Each table: online or offline since when, what it does, its game, its faults, its
        software version and its OLED (device/fleet/screen_feed.py)."""
        if self.board is None:
            return answer(200, {"tables": []})
        board, language = self.board, request.query_params.get("lang") or "en"
        seen = await off(lambda: board.view()["tables"])
        tables = [(table_shown(t, language_of(language, "en")), t["state"] or {}) for t in seen]
        return answer(200, {"tables": [
            {"name": t["name"], "online": t["online"], "activity": t["activity"],
             "offline_since": t["offline_since"], "game": t["game"]["title"] if t["game"] else None,
             "faults": t["faults"], "version": state.get("version"), "screen": state.get("screen")}
            for t, state in tables]})

    async def leaderboard(self, request: Request) -> Response:
        game, period = request.query_params.get("game") or None, request.query_params.get("period", "month")
        return await self._asked(partial(boards.leaderboard, self.history, game, period, self.today()),
                                 lambda rows: {"game": game, "period": period, "rows": rows})

    def _span(self, request: Request) -> tuple[str | None, str | None]:
        return (boards.day_of(request.query_params.get("from"), "from"),
                boards.day_of(request.query_params.get("to"), "to"))

    async def played(self, request: Request) -> Response:
        try:
            since, until = self._span(request)
        except boards.AskedWrong as exc:
            return answer(400, {"error": str(exc)})
        return await self._asked(partial(boards.games, self.history, since, until), lambda g: {"games": g})

    async def played_csv(self, request: Request) -> Response:
        try:
            since, until = self._span(request)
        except boards.AskedWrong as exc:
            return answer(400, {"error": str(exc)})
        played = await off(boards.games, self.history, since, until)
        name = f"history-{since or 'start'}-{until or self.today().isoformat()}.csv"
        return Response(boards.as_csv(played), 200, media_type="text/csv; charset=utf-8", headers={
            **PRIVATE, "Content-Disposition": f'attachment; filename="{name}"'})

    async def player(self, request: Request) -> Response:
        name = request.query_params.get("name", "")
        return await self._asked(partial(boards.player_page, self.history, name), lambda page: page)

    async def _asked(self, work: Callable[[], Any], shaped: Callable[[Any], Any]) -> Response:
        try:
            return answer(200, shaped(await off(work)))
        except boards.AskedWrong as exc:
            return answer(400, {"error": str(exc)})

    # ---- players and staff cards, as the command line does them -----------------------------

    async def players(self, request: Request) -> Response:
        found = await off(lambda: Roster(self.state_dir).players())
        return answer(200, {"players": [shown(p) for p in found]})

    async def add_player(self, request: Request) -> Response:
        return await self._change(request, {"name": str},
                                  lambda f: shown(Roster(self.state_dir).add(new_player(f["name"]))), "roster")

    async def rename_player(self, request: Request) -> Response:
        return await self._change(request, {"name": str, "to": str},
                                  lambda f: shown(rename(Roster(self.state_dir), f["name"], f["to"])), "roster")

    async def remove_player(self, request: Request) -> Response:
        return await self._change(request, {"name": str},
                                  lambda f: shown(Roster(self.state_dir).remove(f["name"])), "roster")

    async def give_card(self, request: Request) -> Response:
        """As `tabletop players card UID NAME`: a tag of a deck or a staff card is no player card."""
        def give(f: dict) -> dict:
            owner = DeckRegistry(self.state_dir).lookup(f["uid"])
            if owner is not None:
                raise RosterError(str(TagTaken(normalize_uid(f["uid"]), owner)))
            return shown(Roster(self.state_dir).give_card(f["uid"], f["name"]))
        return await self._change(request, {"uid": str, "name": str}, give, "roster")

    async def staff(self, request: Request) -> Response:
        cards = await off(lambda: DeckRegistry(self.state_dir).staff())
        return answer(200, {"staff": [{"uid": uid, "label": label} for uid, label in cards.items()]})

    async def add_staff(self, request: Request) -> Response:
        def add(f: dict) -> dict:
            DeckRegistry(self.state_dir).add_staff(f["uid"], f["label"])
            return {"uid": normalize_uid(f["uid"]), "label": f["label"].strip()}
        return await self._change(request, {"uid": str, "label": str}, add, "staff")

    async def revoke_staff(self, request: Request) -> Response:
        def revoke(f: dict) -> dict:
            DeckRegistry(self.state_dir).remove_staff(f["uid"])
            return {"uid": normalize_uid(f["uid"])}
        return await self._change(request, {"uid": str}, revoke, "staff")

    async def decks(self, request: Request) -> Response:
        found = await off(lambda: DeckRegistry(self.state_dir).decks())
        return answer(200, {"decks": [{"name": d.name, "family": d.family, "tags": d.size,
                                       "missing": list(d.missing)} for d in found]})

    async def decks_lacking(self, request: Request) -> Response:
        """Per game, the tables without a complete deck of its family (deck_gaps.py)."""
        if self.board is None:
            return answer(200, lacking([], engine.all_specs()))
        board = self.board
        return answer(200, await off(lambda: lacking(board.view()["tables"], engine.all_specs())))

    async def share_deck(self, request: Request) -> Response:
        def share(f: dict) -> dict:
            DeckRegistry(self.state_dir).deck(f["name"])          # DeckError when there is none
            if self.sharing is None:
                return {"not_shared": "this dashboard has no broker to share with"}
            sharing = self.sharing
            return shared(lambda: sharing.deck(f["name"]))
        return await self._change(request, {"name": str}, share)

    # ---- house rules and language per table (defaults.py) ----------------------------------

    async def house_rules(self, request: Request) -> Response:
        return answer(200, await off(self.house.view))

    async def set_house_rules(self, request: Request) -> Response:
        return await self._change(request, {"table": str, "game": str, "options": dict, "language": str},
                                  lambda f: self.house.change(f["table"], f["game"], f["options"], f["language"]))

    async def _change(self, request: Request, wanted: dict[str, type], change: Callable[[dict], Any],
                      share: str | None = None) -> Response:
        """The change, then (for the roster or the staff cards) the tables told of it."""
        try:
            given = await fields(request, wanted)
            done = await off(change, given)
            if share is not None and self.sharing is not None:
                done = {**done, **await off(shared, getattr(self.sharing, share))}
            return answer(200, done)
        except Refused as exc:
            return answer(exc.status, {"error": exc.error})
        except (RosterError, DeckError, TagTaken, DefaultsRefused, KeyMissing) as exc:
            return answer(400, {"error": str(exc)})
        except OSError as exc:
            return answer(500, {"error": f"the dashboard's state dir cannot be written: {exc.strerror or exc}"})


def rename(roster: Roster, name: str, to: str) -> Player:
    """The player under a new name, cards kept: the new name checked and free first, so a
    refusal changes nothing."""
    old = roster.find(name)
    renamed = new_player(to)
    words = {renamed.name.casefold(), renamed.short.casefold()}
    for other in roster.players():
        if other.name != old.name and words & {other.name.casefold(), other.short.casefold()}:
            raise RosterError(f"{renamed.name}: already the name of {other.name}")
    roster.remove(old.name)
    player = roster.add(renamed)
    for uid in old.cards:
        player = roster.give_card(uid, player.name)
    return player


def shown(player: Player) -> dict:
    return {"name": player.name, "short": player.short, "cards": list(player.cards)}


async def off(work: Callable[..., Any], *args: Any) -> Any:
    """File and database work on a worker thread: the loop serves on meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(None, partial(work, *args))
