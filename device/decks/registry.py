"""The deck registry: which NFC tag is which card of which deck.

One deck file (device/decks/deck_file.py) per physical deck in `<state_dir>/decks/<name>.toml`,
and the staff cards in `<state_dir>/staff.toml` (`[staff]` UID = label). A UID
belongs to one deck or one staff card at most, so a tap names one card. Files
are written atomically, and read again only when they changed, by this registry or
by another process (`tabletop deck learn` beside the running device): while nothing
did, a tap costs a stat of the folder and one of each file. A file that does not
read is reported in `problems` and left out, so one bad file never stops the
device; the running device also moves it aside (device/storage/quarantine.py). A
tag claimed by two files is only reported: each file reads well on its own.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from device.paths import TooLarge, given_text, write_atomic
from device.storage import quarantine

from .deck_file import (
    Deck,
    DeckError,
    card_in,
    check_name,
    deck_text,
    families,
    line_of,
    normalize_uid,
    parse_deck,
    toml_of,
)


class TagTaken(DeckError):
    """The tag is already enrolled: as a card of some deck, or as a staff card."""

    def __init__(self, uid: str, owner: CardRef | StaffRef):
        self.uid, self.owner = uid, owner
        where = f"{owner.card} of deck {owner.deck}" if isinstance(owner, CardRef) else \
            f"staff card {owner.label}"
        super().__init__(f"tag {uid} is already {where}")


class CardTaken(DeckError):
    """The deck already has a tag for this card."""

    def __init__(self, deck: str, card: str, uid: str):
        self.deck, self.card, self.uid = deck, card, uid
        super().__init__(f"deck {deck} already has {card} (tag {uid})")


@dataclass(frozen=True)
class CardRef:
    deck: str
    family: str
    card: str


@dataclass(frozen=True)
class StaffRef:
    label: str


@dataclass(frozen=True)
class DeckInfo:
    name: str
    family: str
    size: int                        # tags enrolled, extras (title card, jokers) included
    missing: tuple[str, ...]         # play cards with no tag yet, in the rules' order

    @property
    def complete(self) -> bool:
        return not self.missing


# ---------------------------------------------------------------------------------------------
# The registry.

class DeckRegistry:
    """The decks and staff cards of one state dir."""

    def __init__(self, state_dir: Path):
        self.state_dir = Path(state_dir)
        self._folder: object = None            # the decks folder's stat when last listed
        self._files: list[Path] = []           # its deck files then, and the staff list
        self._stamp: object = None             # their stats when last read; None: read again
        self._decks: dict[str, Deck] = {}
        self._staff: dict[str, str] = {}
        self._owners: dict[str, CardRef | StaffRef] = {}
        self.problems: list[str] = []
        self._unread: dict[Path, str] = {}     # a file that did not read -> its line in problems

    @property
    def decks_dir(self) -> Path:
        return self.state_dir / "decks"

    @property
    def staff_file(self) -> Path:
        return self.state_dir / "staff.toml"

    # -- reading --------------------------------------------------------------------------------
    def lookup(self, uid: str) -> CardRef | StaffRef | None:
        """What a tag is, or None for a tag of no deck (and for a UID that does not parse)."""
        try:
            uid = normalize_uid(uid)
        except DeckError:
            return None
        return self._fresh()._owners.get(uid)

    def decks(self) -> list[DeckInfo]:
        return [self.info(name) for name in sorted(self._fresh()._decks)]

    def deck(self, name: str) -> Deck:
        try:
            return self._fresh()._decks[name]
        except KeyError:
            raise DeckError(f"no deck named {name!r}") from None

    def info(self, name: str) -> DeckInfo:
        deck = self.deck(name)
        have = set(deck.tags.values())
        cards = families()[deck.family].cards
        return DeckInfo(name, deck.family, len(deck.tags), tuple(c for c in cards if c not in have))

    def staff(self) -> dict[str, str]:
        return dict(self._fresh()._staff)

    # -- changing -------------------------------------------------------------------------------
    def add_tag(self, deck: str, family: str, uid: str, card: str) -> CardRef:
        """Enrol one tag as `card`, creating the deck if needed; saved before it returns."""
        uid = normalize_uid(uid)
        canonical = card_in(family, card)
        if canonical is None:
            raise DeckError(f"{card!r} is not a {family} card")
        owner = self.lookup(uid)
        if owner is not None:
            raise TagTaken(uid, owner)
        current = self._decks.get(deck) or Deck(check_name(deck), family, {})
        if current.family != family:
            raise DeckError(f"deck {deck} is a {current.family} deck, not {family}")
        taken = {c: u for u, c in current.tags.items()}
        if canonical in taken:
            raise CardTaken(deck, canonical, taken[canonical])
        self._save(Deck(deck, family, {**current.tags, uid: canonical}))
        return CardRef(deck, family, canonical)

    def remove(self, deck: str) -> None:
        self.deck(deck)
        (self.decks_dir / f"{deck}.toml").unlink()
        self._forget()

    def export(self, deck: str) -> str:
        return deck_text(self.deck(deck))

    def import_text(self, text: str, name: str | None = None, replace: bool = False) -> DeckInfo:
        """Add a deck from its exported text; refused if a tag already belongs elsewhere."""
        deck = parse_deck(text, name)
        if deck.name in self._fresh()._decks and not replace:
            raise DeckError(f"deck {deck.name} exists: remove it first, or import with --replace")
        for uid in deck.tags:
            owner = self._owners.get(uid)
            if owner is not None and getattr(owner, "deck", None) != deck.name:
                raise DeckError(f"line {line_of(text, uid)}: {TagTaken(uid, owner)}")
        self._save(deck)
        return self.info(deck.name)

    def add_staff(self, uid: str, label: str) -> None:
        uid, label = normalize_uid(uid), label.strip()
        if not label:
            raise DeckError("a staff card needs a label")
        owner = self.lookup(uid)
        if owner is not None and not isinstance(owner, StaffRef):
            raise TagTaken(uid, owner)
        self._save_staff({**self._staff_to_change(), uid: label})

    def remove_staff(self, uid: str) -> None:
        uid = normalize_uid(uid)
        staff = self._staff_to_change()
        if staff.pop(uid, None) is None:
            raise DeckError(f"tag {uid} is not a staff card")
        self._save_staff(staff)

    def _staff_to_change(self) -> dict[str, str]:
        """The staff cards, refused while their file does not read: writing the list anew
        would drop every card in it."""
        broken = self._fresh()._unread.get(self.staff_file)
        if broken is not None and self.staff_file.exists():    # not moved aside
            raise DeckError(broken)
        return dict(self._staff)

    def _save(self, deck: Deck) -> None:
        write_atomic(self.decks_dir / f"{deck.name}.toml", deck_text(deck))
        self._forget()

    def _save_staff(self, staff: dict[str, str]) -> None:
        head = "# Staff cards: tag UID = label. They open the admin menu in kiosk mode.\n"
        write_atomic(self.staff_file, head + tomli_w.dumps({"staff": dict(sorted(staff.items()))}))
        self._forget()

    # -- loading --------------------------------------------------------------------------------
    def _forget(self) -> None:
        """This registry changed a file: the next look lists and reads again."""
        self._folder = self._stamp = None

    def _fresh(self) -> DeckRegistry:
        """Read the files again if any changed since the last look.

        A deck file added, replaced (every writer replaces it whole), set aside or removed
        changes the folder's stat, and only then is the folder listed; a file edited in place
        changes its own. So while nothing changed a look is a stat of the folder and one of
        each file, and reads nothing."""
        folder = _stat(self.decks_dir)
        if folder is None or folder != self._folder:
            self._folder, self._files = folder, self._listed()
        stamps = [_stat(path) for path in self._files]
        stamp = tuple(zip((path.name for path in self._files), stamps, strict=True))
        if stamp != self._stamp:
            self._load([path for path, found in zip(self._files, stamps, strict=True) if found])
            self._stamp = stamp
        return self

    def _listed(self) -> list[Path]:
        """The deck files, by name, and the staff list (which may or may not be there)."""
        decks = sorted(self.decks_dir.glob("*.toml")) if self.decks_dir.is_dir() else []
        return [*decks, self.staff_file]

    def _load(self, files: Iterable[Path]) -> None:
        self._decks, self._staff, self._owners, self._unread = {}, {}, {}, {}
        for path in files:
            try:
                text = given_text(path)
                if path == self.staff_file:
                    self._load_staff(text)
                else:
                    self._load_deck(path.stem, text)
            except TagTaken as exc:           # each file is fine: which one is right, staff says
                self._unread[path] = f"{path}: {exc}"
            except TooLarge as exc:           # opened, but no deck or staff list is this big
                self._unread[path] = quarantine.refuse(self.state_dir, path, exc.strerror)
            except OSError as exc:
                self._unread[path] = f"{path}: {exc.strerror or exc}"
            except (DeckError, UnicodeDecodeError) as exc:
                why = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc
                self._unread[path] = quarantine.refuse(self.state_dir, path, why)
        self.problems = list(self._unread.values())

    def _load_deck(self, name: str, text: str) -> None:
        deck = parse_deck(text, name)
        for uid in deck.tags:
            if uid in self._owners:
                raise TagTaken(uid, self._owners[uid])
        self._decks[deck.name] = deck
        self._owners.update({uid: CardRef(deck.name, deck.family, card) for uid, card in deck.tags.items()})

    def _load_staff(self, text: str) -> None:
        """The staff list, checked whole before any card of it counts."""
        data = toml_of(text)
        unknown = sorted(set(data) - {"staff"})
        if unknown:
            raise DeckError(f"line {line_of(text, unknown[0])}: unknown key {unknown[0]!r} "
                            f"(a staff list has [staff] only)")
        table = data.get("staff", {})
        if not isinstance(table, dict):
            raise DeckError(f"line {line_of(text, 'staff')}: staff must be a table [staff]")
        staff: dict[str, str] = {}
        for key, label in table.items():
            try:
                uid = normalize_uid(key)
            except DeckError as exc:
                raise DeckError(f"line {line_of(text, key)}: {exc}") from None
            if not isinstance(label, str) or not label.strip():
                raise DeckError(f"line {line_of(text, key)}: tag {uid}: the label must be text")
            staff[uid] = label
        taken = next((uid for uid in staff if uid in self._owners), None)
        if taken is not None:
            raise TagTaken(taken, self._owners[taken])
        for uid, label in staff.items():
            self._staff[uid] = label
            self._owners[uid] = StaffRef(label)


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_mtime_ns, found.st_size, found.st_ino
