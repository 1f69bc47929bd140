"""The café's roster: the players' names a setup offers, the most recently seated first, and
their player cards. One TOML file in the state dir, beside the decks:

    [[player]]
    name = "Annabelle"
    short = "Anna"               # only when the name is too long for the screen
    cards = ["04A1B2C3"]

The file's order is the offer's: a player added or seated moves to the top. A name is
seated as its short form, which every screen, the journal and the history show.
Everything read or given is checked; an error is one line naming the player or line.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import tomli_w

from device.paths import write_atomic
from device.storage import quarantine
from hardware.iso14443 import uid_of_text

from .reserved import reserved_word

FILE = "players.toml"
NAME_MAX = 32           # characters a name may have at all
SHORT_MAX = 10          # characters a seated name takes on the screen ("Annabelle's turn")
ROSTER_MAX = 500        # players in a café's roster: the setup menu stays a menu
_SEAT = re.compile(r"P[0-9]+")       # the names unnamed seats get: never a player's


class RosterError(ValueError):
    """A roster change that cannot be done, or a roster file that does not read: one line."""


@dataclass(frozen=True)
class Player:
    name: str                        # as the café knows them
    short: str                       # as the table seats them: fits the screen
    cards: tuple[str, ...] = ()      # player cards' UIDs: a tap at setup seats them


def drawn(char: str) -> bool:
    """True for a character of the screen's font: its glyphs are Windows-1252's (tools/
    make_font.py), which tests/device/test_players.py holds to the font itself."""
    try:
        char.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def unnamed(seat: str) -> bool:
    """True for the name a seat nobody named gets (P1, P2, ...): it is no one in particular."""
    return bool(_SEAT.fullmatch(seat))


def check_name(name: object, what: str = "a player's name", most: int = NAME_MAX) -> str:
    """`name` if it is one printable word the screen's font draws, of at most `most`
    characters, and not an unnamed seat's; else RosterError saying why."""
    check_word(name, what, most)
    assert isinstance(name, str)
    if unnamed(name):
        raise RosterError(f"{what} {name!r} is how unnamed seats are called")
    return name


def check_word(name: object, what: str = "a player's name", most: int = NAME_MAX) -> str:
    """`name` if it is one printable word the screen's font draws, of at most `most`
    characters (a seat's name too, P1 included); else RosterError saying why."""
    if not isinstance(name, str):
        raise RosterError(f"{what} must be text")
    if not name:
        raise RosterError(f"{what} is empty")
    if len(name) > most:
        raise RosterError(f"{what} {name[:most]!r}... is longer than {most} characters")
    # `#` starts a comment in replay and simulator scripts, where names are typed too
    bad = next((ch for ch in name if ch.isspace() or not ch.isprintable() or not drawn(ch)
                or ch == "#"), None)
    if bad is not None:
        raise RosterError(f"{what} {name!r} has {bad!r}: one word of letters the screen can show")
    return name


def new_name(name: str, what: str = "a player's name", most: int = NAME_MAX) -> str:
    """A name given now (typed, or heard from the café): also none of the words a game's
    menus answer with. A roster file written before keeps its names readable."""
    check_name(name, what, most)
    taken = reserved_word(name)
    if taken is not None:
        raise RosterError(f"{what}: {taken}")
    return name


def new_player(name: str, short: str | None = None) -> Player:
    """A player from what a person typed: a name that would be cut on the screen needs a short
    form that fits."""
    name = new_name(name.strip())
    if short is None:
        if len(name) > SHORT_MAX:
            raise RosterError(f"{name!r} is longer than the screen's {SHORT_MAX} characters: "
                              f"give a short form with --short")
        return Player(name, name)
    return Player(name, new_name(short.strip(), "the short form", SHORT_MAX))


# ---------------------------------------------------------------------------------------------
# The file.

def parse_roster(text: str) -> list[Player]:
    """The roster a file holds, checked whole; RosterError naming the first problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RosterError(f"not a roster file: {exc}") from None
    except RecursionError:                     # arrays nested thousands deep
        raise RosterError("not a roster file: nested too deeply") from None
    unknown = sorted(set(data) - {"player"})
    if unknown:
        raise RosterError(f"unknown key {unknown[0]!r} (a roster has [[player]] tables only)")
    entries = data.get("player", [])
    if not isinstance(entries, list) or len(entries) > ROSTER_MAX:
        raise RosterError(f"player must be at most {ROSTER_MAX} [[player]] tables")
    players: list[Player] = []
    for n, entry in enumerate(entries, 1):
        try:
            players.append(_entry(entry))
        except RosterError as exc:
            raise RosterError(f"player {n}: {exc}") from None
    _check_unique(players)
    return players


def _entry(entry: object) -> Player:
    if not isinstance(entry, dict):
        raise RosterError("must be a table")
    unknown = sorted(set(entry) - {"name", "short", "cards"})
    if unknown:
        raise RosterError(f"unknown key {unknown[0]!r} (name, short, cards)")
    name = check_name(entry.get("name"))
    short = check_name(entry.get("short", name), "the short form", SHORT_MAX)
    cards = entry.get("cards", [])
    if not isinstance(cards, list) or not all(isinstance(uid, str) for uid in cards):
        raise RosterError(f"{name}: cards must be a list of tag UIDs")
    try:
        return Player(name, short, tuple(uid_of_text(uid) for uid in cards))
    except ValueError as exc:
        raise RosterError(f"{name}: {exc}") from None


def _check_unique(players: list[Player]) -> None:
    """Names and short forms are one namespace (a game seats either); a card seats one player."""
    seen: dict[str, str] = {}
    for player in players:
        for word in {player.name.casefold(), player.short.casefold()}:
            if seen.setdefault(word, player.name) != player.name:
                raise RosterError(f"{player.name}: {word!r} is already {seen[word]}")
    cards: dict[str, str] = {}
    for player in players:
        for uid in player.cards:
            if cards.setdefault(uid, player.name) != player.name:
                raise RosterError(f"tag {uid} is the card of both {cards[uid]} and {player.name}")


def card_holder(players: Iterable[Player], uid: str) -> Player | None:
    """Whose player card the tag is, if anyone's."""
    try:
        uid = uid_of_text(uid)
    except ValueError:
        return None
    return next((p for p in players if uid in p.cards), None)


def roster_text(players: list[Player]) -> str:
    head = "# The café's players, the most recently seated first (tabletop players ...).\n"
    entries = [{"name": p.name, **({"short": p.short} if p.short != p.name else {}),
                **({"cards": list(p.cards)} if p.cards else {})} for p in players]
    return head + tomli_w.dumps({"player": entries})


# ---------------------------------------------------------------------------------------------
# The roster of a state dir.

class Roster:
    """The roster file of one state dir; every change is written whole before it returns."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / FILE

    def players(self) -> list[Player]:
        """The players, the most recently seated first; none while there is no file.
        A file that does not read is set aside like every bad state file (device/storage/
        quarantine.py: moved to unreadable/ by the running table, reported by a command), and
        RosterError says so in one line (OSError for a file that cannot be opened)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except UnicodeDecodeError:
            why = "not UTF-8 text"
        else:
            try:
                return parse_roster(text)
            except RosterError as exc:
                why = str(exc)
        raise RosterError(quarantine.refuse(self.path.parent, self.path, why))

    def find(self, name: str) -> Player:
        """The player called `name` (or of that short form), or RosterError."""
        word = name.strip().casefold()
        found = next((p for p in self.players()
                      if word in (p.name.casefold(), p.short.casefold())), None)
        if found is None:
            raise RosterError(f"no player {name!r} in the roster: tabletop players add NAME")
        return found

    def holder(self, uid: str) -> Player | None:
        return card_holder(self.players(), uid)

    def add(self, player: Player) -> Player:
        players = self.players()
        if any(p.name == player.name for p in players):       # the same name twice is one player
            raise RosterError(f"{player.name} is already a player")
        _check_unique([*players, player])
        if len(players) >= ROSTER_MAX:
            raise RosterError(f"the roster is full ({ROSTER_MAX} players): remove some first")
        self._save([player, *players])
        return player

    def remove(self, name: str) -> Player:
        gone = self.find(name)
        self._save([p for p in self.players() if p.name != gone.name])
        return gone

    def give_card(self, uid: str, name: str) -> Player:
        """Make the tag `name`'s player card (refused if it is someone else's)."""
        try:
            uid = uid_of_text(uid)
        except ValueError as exc:
            raise RosterError(str(exc)) from None
        player, holder = self.find(name), self.holder(uid)
        if holder is not None and holder.name != player.name:
            raise RosterError(f"tag {uid} is already the card of {holder.name}")
        changed = replace(player, cards=tuple(dict.fromkeys((*player.cards, uid))))
        self._save([changed if p.name == player.name else p for p in self.players()])
        return changed

    def merge(self, shared: list[Player], taken: Callable[[str], bool]) -> list[str]:
        """Another table's roster: the players this one lacks join at the bottom of the offer,
        and a player card of a player known here is added unless the tag is anyone's here
        (`taken`: a deck's or a staff card). Nothing here is changed or removed. The names
        that are new, or have a new card."""
        players = self.players()
        words = {w for p in players for w in (p.name.casefold(), p.short.casefold())}
        cards = {uid for p in players for uid in p.cards}
        changed: list[str] = []
        for other in shared:
            if reserved_word(other.name) or reserved_word(other.short):
                continue                       # would answer a game's menu: never seated
            new = tuple(uid for uid in other.cards if uid not in cards and not taken(uid))
            mine = next((p for p in players if p.name == other.name), None)
            if mine is not None and new:
                players[players.index(mine)] = replace(mine, cards=mine.cards + new)
            elif mine is None and not {other.name.casefold(), other.short.casefold()} & words \
                    and len(players) < ROSTER_MAX:
                players.append(replace(other, cards=new))
                words |= {other.name.casefold(), other.short.casefold()}
            else:
                continue
            cards.update(new)
            changed.append(other.name)
        if changed:
            self._save(players)
        return changed

    def take_back(self, cards: set[str], names: set[str]) -> list[str]:
        """The café's roster no longer names these players and cards: they go. The names
        of the players that lost a card or left."""
        players, kept, changed = self.players(), [], []
        for player in players:
            if player.name in names:
                changed.append(player.name)
                continue
            left = tuple(uid for uid in player.cards if uid not in cards)
            if left != player.cards:
                changed.append(player.name)
            kept.append(replace(player, cards=left))
        if changed:
            self._save(kept)
        return changed

    def seated(self, names: tuple[str, ...]) -> None:
        """A game seated these names: theirs move to the top of the offer, in seat order."""
        players = self.players()
        first = [p for name in names for p in players if p.short == name]
        if first:
            self._save(first + [p for p in players if p not in first])

    def _save(self, players: list[Player]) -> None:
        write_atomic(self.path, roster_text(players))
