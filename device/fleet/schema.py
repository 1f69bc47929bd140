"""What a table sends, and nothing else: the one parser of every table message the dashboard reads.

Any client of the broker can publish on any table's topic, so every number, name, count, size
and date of a table message goes through here before the board keeps it: table names and
counts are ASCII (`str.isdigit` says yes to '①', `int` says no), numbers finite and bounded,
names and texts short, lists bounded, dates ISO 8601 with their offset and not in the future.
What comes out holds only the keys the wall screen uses, so no field a table did not mean can
reach the page, and a board of every table stays small. A message that does not fit raises
`Refused` with why; `Drops` logs those in one line, rate-limited. With the café's fleet key set,
a message counts only when its `sig` checks (device/fleet/signing.py).
"""
from __future__ import annotations

import base64
import datetime
import logging
import math
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from device.players.reserved import reserved_word
from device.players.roster import RosterError, check_word

from .envelope import Refused as Refused  # why a message is not taken: one kind for all
from .envelope import Trust
from .topics import check, online_of, table_topic

log = logging.getLogger(__name__)

TABLE_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}", re.ASCII)      # as the config takes it
MESSAGE_KEY = re.compile(r"[A-Za-z0-9_]{1,32}(\.[A-Za-z0-9_]{1,32}){0,4}", re.ASCII)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)
DECK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", re.ASCII)   # as a deck file's
ACTIVITIES = ("playing", "over", "idle", "attract")
MAX_NAME = 64                 # a player's name, a fault's part, a message's argument name
MAX_TITLE = 64
SCREEN_BYTES = 128 * 64 // 8  # the OLED, one bit a pixel
MAX_VERSION = 40
MAX_DECKS = 64                # a table holds a few
MAX_TEXT = 400                # a prompt, a headline, a fault: a few screen lines
MAX_SEATS = 16                # no game seats more
MAX_ITEMS = 12                # a message's arguments, a list argument, faults
MAX_LAST = 4                  # the last event's messages the table sends
MAX_NESTING = 3               # a message inside a message's arguments
MAX_NUMBER = 10**9            # a score, a seq, an argument
MAX_SECONDS = 400 * 86400     # a game, a sitting: well under a year
MAX_DATE = 40                 # characters of an ISO 8601 time with its offset
TURNING = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")   # bidi controls
FUTURE_SLACK = datetime.timedelta(minutes=15)   # the tables' clocks and ours differ a little


def table_name(name: str) -> str:
    if not TABLE_NAME.fullmatch(name) or name == "shared":
        raise Refused("not a table name")
    return name


def online(payload: bytes, now: datetime.datetime, trust: Trust | None = None,
           table: str = "") -> tuple[bool, str | None]:
    """Up or not, and since when by the table's clock (None: a last will, an older table's bare
    true/false, or a time that is no date a table could send). With `trust`, `true` counts
    only signed and newer than the table's last word; an unsigned one only as a last will
    (`false`, no time): a replayed or forged `online` cannot bring a gone table back."""
    if trust is not None:
        data, _ = check(payload)
        if data is not None and "sig" in data:
            trust.open(table_topic(table, "online"), payload)
        elif online_of(payload) != (False, None):
            raise Refused("unsigned")
    said = online_of(payload)
    if said is None:
        raise Refused("online is neither a table's online message nor true or false")
    up, since = said
    try:
        return up, _date(since, now)
    except Refused:
        return up, None


def message(kind: str, topic_table: str, payload: bytes, trust: Trust | None,
            now: datetime.datetime) -> dict:
    """The fields the board keeps of a table's `state`, `finished` or `events` message. With
    `trust` (the café's admin key), only one signed by its enrolled table, for its topic, and
    newer than the last it took from there."""
    if trust is not None:
        data, _ = trust.open(table_topic(topic_table, kind), payload)
    else:
        found, why = check(payload)
        if found is None:
            raise Refused(why or "not a message")
        data = found
    if data.get("table") != topic_table:
        raise Refused("not from the table its topic names")
    return PARSERS[kind](data, now)


# ---- the three messages ---------------------------------------------------------------------

def state(data: dict, now: datetime.datetime) -> dict:
    activity = data.get("activity")
    if activity not in ACTIVITIES:
        raise Refused("not an activity")
    said = _dict(data.get("said"), "said")
    game = data.get("game")
    return {"activity": activity, "game": None if game is None else game_view(game),
            "faults": _faults(data.get("faults"), _text),
            # an older table sends no words: then the page shows its own texts
            "said": {"prompt": _words(said.get("prompt")), "headline": _words(said.get("headline")),
                     "last": [_words(m) for m in _list(said.get("last"), MAX_LAST, "last")],
                     **({"faults": _faults(said["faults"], _words)} if "faults" in said else {})}
            if "said" in data else {},
            "times": _times(_dict(data.get("times"), "times"), now),
            **({"version": _text(data["version"], MAX_VERSION)} if "version" in data else {}),
            **({"screen": _screen(data["screen"])} if "screen" in data else {}),
            **({"decks": [_deck(d) for d in _list(data["decks"], MAX_DECKS, "decks")]}
               if "decks" in data else {})}


def _deck(value) -> dict:
    """A deck a table holds: its name, its family and whether every card has a tag."""
    deck = _dict(value, "deck")
    if not (isinstance(deck.get("name"), str) and DECK_NAME.fullmatch(deck["name"])
            and isinstance(deck.get("family"), str) and GAME_ID.fullmatch(deck["family"])):
        raise Refused("not a deck")
    return {"name": deck["name"], "family": deck["family"], "complete": _flag(deck.get("complete"))}


def _screen(value) -> str | None:
    """The table's OLED, 1,024 bytes in base64 (device/fleet/screen_feed.py), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 2 * SCREEN_BYTES:
        raise Refused("not a screen")
    try:
        frame = base64.b64decode(value, validate=True)
    except ValueError:
        raise Refused("not a screen") from None
    if len(frame) != SCREEN_BYTES:
        raise Refused("not a screen")
    return value


def finished(data: dict, now: datetime.datetime) -> dict:
    said = _dict(data.get("said"), "said")
    seconds = data.get("seconds")
    game_id = data.get("game_id")
    if game_id is not None and not (isinstance(game_id, str) and GAME_ID.fullmatch(game_id)):
        raise Refused("not a game id")
    return {"at": _date(data.get("at"), now), "started": _date(data.get("started"), now),
            "game_id": game_id,
            "game": _game_id(data.get("game")), "title": _text(data.get("title"), MAX_TITLE),
            "players": _players(data.get("players")), "winners": _winners(data.get("winners")),
            "headline": _text(data.get("headline")),
            "said": {"headline": _words(said.get("headline"))} if "said" in data else {},
            "seconds": None if seconds is None else count(seconds, MAX_SECONDS),
            "clock_corrected": _flag(data.get("clock_corrected"))}


def event(data: dict, now: datetime.datetime) -> dict:
    game_id = data.get("game_id")
    if not (isinstance(game_id, str) and GAME_ID.fullmatch(game_id)):
        raise Refused("not a game id")
    return {"game_id": game_id, "seq": count(data.get("seq"), MAX_NUMBER, low=1),
            "started": _date(data.get("started"), now)}


PARSERS: dict[str, Callable[[dict, datetime.datetime], dict]] = {
    "state": state, "finished": finished, "events": event}


# ---- their parts ----------------------------------------------------------------------------

def game_view(game) -> dict:
    """The game part of a state: what its card shows."""
    game = _dict(game, "game")
    prompt = game.get("prompt")
    return {"title": _text(game.get("title"), MAX_TITLE), "over": _flag(game.get("over")),
            "turn": _name_or_none(game.get("turn")), "players": _players(game.get("players")),
            "winners": _winners(game.get("winners")), "headline": _text(game.get("headline")),
            "prompt": None if prompt is None else {"text": _text(_dict(prompt, "prompt").get("text"))}}


def _players(players) -> list[dict]:
    seats = [_dict(p, "player") for p in _list(players, MAX_SEATS, "players")]
    return [{"name": player(p.get("name")), "score": _score(p.get("score")), "out": _flag(p.get("out"))}
            for p in seats]


def _winners(winners) -> list[str]:
    return [player(w) for w in _list(winners, MAX_SEATS, "winners")]


def _times(times: dict, now: datetime.datetime) -> dict:
    elapsed = times.get("elapsed")
    return {"seated": _date(times.get("seated"), now), "started": _date(times.get("started"), now),
            "ended": _date(times.get("ended"), now),
            "elapsed": None if elapsed is None else count(elapsed, MAX_SECONDS)}


def _faults(faults, each) -> dict:
    faults = _dict(faults, "faults")
    if len(faults) > MAX_ITEMS:
        raise Refused("too many faults")
    return {name(part): each(text) for part, text in faults.items()}


def _words(value, depth: int = 1) -> dict | None:
    """A message as device/fleet/words.py sends it: a key and bounded arguments."""
    if value is None:
        return None
    value = _dict(value, "words")
    key, args = value.get("key"), _dict(value.get("args", {}), "arguments")
    if not (isinstance(key, str) and MESSAGE_KEY.fullmatch(key)):
        raise Refused("not a message key")
    if len(args) > MAX_ITEMS or depth > MAX_NESTING:
        raise Refused("a message too big")
    return {"key": key, "args": {name(k): _argument(v, depth) for k, v in args.items()}}


def _argument(value, depth: int):
    if isinstance(value, dict):
        return _words(value, depth + 1)
    if isinstance(value, list):
        return [_argument(v, depth) for v in _list(value, MAX_ITEMS, "argument")]
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bool):
        return value                    # a table may send one; no catalog's words take it
    return None if value is None else _score(value)


# ---- the values ----------------------------------------------------------------------------

def count(value, high: int, low: int = 0) -> int:
    """A whole number a table counts with: a JSON integer (never true/false) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused("not a count")
    return value


def name(value) -> str:
    """A player's name (one word, as the games take it) or a key's name: short, with no
    space, control character or lone surrogate (an emoji's joiners are fine)."""
    if not (isinstance(value, str) and 0 < len(value) <= MAX_NAME and _one_word(value)):
        raise Refused("not a name")
    return value


# Every state repeats the same few names and keys: each is looked at once, not once a message.
NAMES_KEPT = 4096


@lru_cache(maxsize=NAMES_KEPT)
def _one_word(value: str) -> bool:
    return not any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cs") for ch in value)


def player(value) -> str:
    """A seated player's name as a table takes it: one word the table's font draws (no format
    character to turn the line around), none of the words a game's menus answer with."""
    why = _not_a_player(name(value))
    if why is not None:
        raise Refused(why)
    return value


@lru_cache(maxsize=NAMES_KEPT)
def _not_a_player(value: str) -> str | None:
    try:
        check_word(value, most=MAX_NAME)
    except RosterError:
        return "not a player's name"
    if reserved_word(value) is not None:
        return "a game's word, not a player's name"
    return None


def _name_or_none(value) -> str | None:
    return None if value is None else player(value)


def _score(value) -> int | float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise Refused("not a finite number")
    return value


def _text(value, limit: int = MAX_TEXT) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise Refused("not a short text")
    if TURNING.search(value):
        raise Refused("a text with a character that turns the line around")
    return value


def _flag(value) -> bool:
    if value is not None and not isinstance(value, bool):
        raise Refused("not true or false")
    return value is True


def _game_id(value) -> str | None:
    if value is None:
        return None
    if not (isinstance(value, str) and GAME_ID.fullmatch(value)):
        raise Refused("not a game")
    return value


def _date(value, now: datetime.datetime) -> str | None:
    """An ISO 8601 time with its offset, not after `now` (and a little slack); a time in the
    future is no time a table could have sent, so it is left out (the message stays)."""
    if value is None:
        return None
    if not (isinstance(value, str) and len(value) <= MAX_DATE and value.isascii()):
        raise Refused("not a date")
    try:
        when = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise Refused("not a date") from None
    if when.tzinfo is None:
        raise Refused("a date without its offset")
    return value if when <= now + FUTURE_SLACK else None


def _dict(value, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Refused(f"{what} is not an object")
    return value


def _list(value, limit: int, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > limit:
        raise Refused(f"{what} is not a list of at most {limit}")
    return value


class Drops:
    """One log line per refused message, but at most one every `every` seconds (a flood of
    forged messages must not fill the disk): the next line says how many went unlogged."""

    def __init__(self, monotonic: Callable[[], float], every: float = 60.0) -> None:
        self.monotonic, self.every = monotonic, every
        self._next: float | None = None
        self.unlogged = 0
        self.count = 0                        # every message refused, logged or not

    def drop(self, topic: str, why: str) -> None:
        self.count += 1
        now = self.monotonic()
        if self._next is not None and now < self._next:
            self.unlogged += 1
            return
        more = f" (and {self.unlogged} more since)" if self.unlogged else ""
        log.warning("fleet: dropped the message on %.80r: %s%s", topic, why, more)
        self._next, self.unlogged = now + self.every, 0
