"""Teaching the device a physical deck: `tabletop deck learn GAME` (DESIGN.md §5).

The walk follows the deck's manifest (seeds/<family>.toml) kind by kind and copy
by copy: "Tap Clam 3/20". Each accepted tag is saved at once, so a walk that is
interrupted resumes at the first card still missing. A tag already enrolled,
in this deck or another, or as a staff card, is refused with a short message.
Optional extras (the title card, jokers) are not asked for: they can be
imported, and a deck is complete without them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import seeds

from .decks import (CardRef, DeckError, DeckRegistry, Family, StaffRef, check_name, family_for,
                    normalize_uid)

LINE = 21                            # characters in a screen line


@dataclass(frozen=True)
class Step:
    """One card to tap: its id, the name printed on it, and which copy of how many."""

    card: str
    name: str
    copy: int
    copies: int

    def short(self) -> str:
        """`Clam 3`, or `Storm Warning` for a single card."""
        return self.name if self.copies == 1 else f"{self.name} {self.copy}"

    def asked(self) -> str:
        """`Clam 3/20`, or `Storm Warning`."""
        return self.name if self.copies == 1 else f"{self.name} {self.copy}/{self.copies}"


def steps(family: Family) -> tuple[Step, ...]:
    """Every play card of the family, in the order of its manifest."""
    try:
        manifest: seeds.Manifest | None = seeds.load(family.name)
    except (seeds.ManifestError, OSError):
        manifest = None
    order = _manifest_order(manifest) if manifest else []
    cards = [c for c in order if c in family.cards] + [c for c in family.cards if c not in order]
    kinds = [c.split("#", 1)[0] for c in cards]
    found: list[Step] = []
    for card, kind in zip(cards, kinds):
        copies = kinds.count(kind)
        copy = int(card.split("#", 1)[1]) if "#" in card else 1
        found.append(Step(card, _name(manifest, kind), copy, copies))
    return tuple(found)


def _manifest_order(manifest: seeds.Manifest) -> list[str]:
    if manifest.cards:
        return list(manifest.cards)
    order: list[str] = []
    for kind, data in manifest.kinds.items():
        copies = int(data.get("copies", 1))
        order += [kind] if copies == 1 else [f"{kind}#{n}" for n in range(1, copies + 1)]
    return order


def _name(manifest: seeds.Manifest | None, kind: str) -> str:
    """The card's printed name from the manifest; a bare number reads as `Card 7`."""
    name = manifest.name(kind) if manifest else kind
    if name == kind:                  # no name given: chief_mouta reads as Chief Mouta
        name = " ".join(word[:1].upper() + word[1:] for word in kind.split("_"))
    return f"Card {name}" if name.isdigit() else name


class Enrollment:
    """Walks one deck's cards; `offer` each tag read, show `prompt()` in between.

        learning = Enrollment(registry, "palourde", "cafe1")
        learning.prompt()        # ["Learn deck cafe1", "Tap Basket 1/5", "0 of 59 done"]
        learning.offer("04A1B2C3D4E5F6")   # (True, "Basket 1 OK")
    """

    def __init__(self, registry: DeckRegistry, game: str, deck_name: str | None = None):
        self.registry = registry
        self.family = family_for(game)
        self.deck = check_name(deck_name or self.family.name)
        self.steps = steps(self.family)
        if self.deck in {d.name for d in registry.decks()}:
            existing = registry.deck(self.deck).family
            if existing != self.family.name:
                raise DeckError(f"deck {self.deck} is a {existing} deck, not {self.family.name}")

    def _learnt(self) -> set[str]:
        try:
            return set(self.registry.deck(self.deck).tags.values())
        except DeckError:             # not created until its first tag
            return set()

    @property
    def current(self) -> Step | None:
        """The first card still missing, or None when the deck is complete."""
        learnt = self._learnt()
        return next((step for step in self.steps if step.card not in learnt), None)

    @property
    def done(self) -> bool:
        return self.current is None

    def prompt(self) -> list[str]:
        learnt = self._learnt()
        count = sum(step.card in learnt for step in self.steps)
        step = self.current
        lines = [f"Learn deck {self.deck}", f"Tap {step.asked()}" if step else "Deck complete",
                 f"{count} of {len(self.steps)} done"]
        return [line[:LINE] for line in lines]

    def offer(self, uid: str) -> tuple[bool, str]:
        """Enrol `uid` as the current card if it is a fresh tag: (accepted, message)."""
        step = self.current
        if step is None:
            return False, "Deck complete"
        try:
            uid = normalize_uid(uid)
        except DeckError:
            return False, "Unreadable tag"
        owner = self.registry.lookup(uid)
        if isinstance(owner, StaffRef):
            return False, "Staff card"
        if isinstance(owner, CardRef):
            return False, self._refusal(owner)
        self.registry.add_tag(self.deck, self.family.name, uid, step.card)
        return True, f"{step.short()} OK"[:LINE]

    def _refusal(self, owner: CardRef) -> str:
        if owner.deck != self.deck:
            return f"Tag of deck {owner.deck}"[:LINE]
        step = next((s for s in self.steps if s.card == owner.card), None)
        return f"Already {step.short() if step else owner.card}"[:LINE]


def learn(enrollment: Enrollment, uids: Iterable[str], show: Callable[[list[str]], None]) -> int:
    """Feed tags to the walk until the deck is complete or the tags run out.

    `show` receives screen lines: the prompt, then after each tag its message and the next
    prompt. Returns 0 once the deck is complete, 1 if the tags ran out first (the tags so far
    are saved; learning again resumes).
    """
    show(enrollment.prompt())
    for uid in uids:
        if enrollment.done:
            break
        _, message = enrollment.offer(uid)
        show([message])
        show(enrollment.prompt())
    return 0 if enrollment.done else 1
