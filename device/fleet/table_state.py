"""What a table tells the café: its state and each finished game (as dicts; events leave from
the journal, device/fleet/journal_feed.py).

The game part is `tabletop status`'s summary plus whose turn it is,
so a dashboard and `tabletop status --json` read the same fields.
"""
from __future__ import annotations

from collections.abc import Callable

from device.clock import whole_seconds
from device.kiosk.plugin import Attract
from device.storage.journal import Played
from device.storage.summary import summary

from .words import to_plain

ACTIVITIES = ("idle", "playing", "over", "attract")


def activity(app, result) -> str:
    """idle (no game), playing, over (the result is shown) or attract (the kiosk's
    "Still playing?" after a game was left alone). `result`: the running game's."""
    if isinstance(app.mode, Attract):
        return "attract"
    if app.session is None:
        return "idle"
    return "over" if result is not None else "playing"


def game_view(app, result) -> dict | None:
    """The running game as `tabletop status` sums it up, its prompt and tally as the screen
    has them (worked out once per state), plus title, deck, leader and whose turn it is."""
    if app.session is None:
        return None
    spec, state = app.session.spec, app.session.state
    view = summary(spec, state, seen=(*app.view(), result))
    del view["rejected"]
    view.update(title=spec.title, deck=app.deck, step=state.seq, leader=leader(view["players"]),
                scores={p["name"]: p.get("score") for p in view["players"]},
                turn=None if result else getattr(state, "current", None),
                headline=app.t(result.headline) if result else None)
    return view


def leader(players: list[dict]) -> str | None:
    """The one player with the highest known score; None on a tie or with no scores."""
    scored = sorted((p for p in players if isinstance(p.get("score"), (int, float))),
                    key=lambda p: p["score"], reverse=True)
    if not scored or (len(scored) > 1 and scored[0]["score"] == scored[1]["score"]):
        return None
    return scored[0]["name"]


def table_state(app) -> dict:
    """Everything the retained state message holds, but the times and the last event's words
    (the plugin's: device/fleet/plugin.py). The game's result is asked once."""
    result = app.session.spec.result(app.session.state) if app.session is not None else None
    return {"activity": activity(app, result), "game": game_view(app, result),
            "display": app.display_level,
            "faults": {part: app.t(message) for part, message in app.faults.items()},
            "said": said(app, result)}


DECKS_EVERY_S = 10.0     # a deck is learnt or imported now and then; reading them costs ms


def decks_held(registry) -> list[dict]:
    """The table's decks as it tells the café (each by name, its family and whether every card
    of it has a tag), so the back office sees which tables lack a game's deck."""
    return [{"name": d.name, "family": d.family, "complete": d.complete} for d in registry.decks()]


class DecksHeld:
    """`decks_held`, read again at most every DECKS_EVERY_S on the table's monotonic clock: the
    state follows every input and tick, and listing the decks costs milliseconds on a Pi."""

    def __init__(self, registry, monotonic: Callable[[], float], every: float = DECKS_EVERY_S) -> None:
        self.registry, self.monotonic, self.every = registry, monotonic, every
        self._read: float | None = None
        self._decks: list[dict] = []

    def now(self) -> list[dict]:
        at = self.monotonic()
        if self._read is None or at - self._read >= self.every:
            self._read, self._decks = at, decks_held(self.registry)
        return self._decks


def said(app, result) -> dict:
    """The screen's words as message keys (device/fleet/words.py): a reader renders them in
    its own language."""
    words = {"faults": {part: to_plain(message) for part, message in app.faults.items()},
             "prompt": None, "headline": None}
    if app.session is not None:
        words["prompt"] = to_plain(app.view()[0].text)
        words["headline"] = to_plain(result.headline) if result else None
    return words


def finished_record(view: dict, said: dict | None = None, started: str | None = None,
                    ended: Played | None = None) -> dict:
    """A finished game from its last game view: the result and every seat's score, its
    headline's words and when it started; with how it `ended` in the journal, its real
    length (`seconds`, on the monotonic clock) and whether its start was re-dated."""
    keep = ("game", "title", "deck", "players", "winners", "headline", "details")
    record = {key: view[key] for key in keep}
    if said is not None:
        record["said"] = {"headline": said.get("headline")}
    if ended is not None and ended.started is not None:
        started = ended.started
    if started is not None:
        record["started"] = started
    if ended is not None:
        record["seconds"] = whole_seconds(ended.seconds or 0.0)
        record["clock_corrected"] = ended.clock_corrected
    return record
