"""Teaching the device a physical deck: `tabletop deck learn GAME`.

The walk follows the deck's manifest (seeds/<family>.toml) kind by kind and copy
by copy: "Tap Clam 3/20". Each accepted tag is saved at once, so a walk that is
interrupted resumes at the first card still missing. A tag already enrolled,
in this deck or another, or as a staff card, is refused with a short message.
Optional extras (the title card, jokers) are not asked for: they can be
imported, and a deck is complete without them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import seeds
from device.players.roster import Roster, RosterError
from device.texts import say
from engine.core.registry import all_specs
from engine.core.text import DEFAULT_LANGUAGE, Msg, msg, render

from .deck_file import DeckError, Family, check_name, family_for, normalize_uid
from .registry import CardRef, DeckRegistry, StaffRef


@dataclass(frozen=True)
class Step:
    """One card to tap: its id, the name printed on it, and which copy of how many.

    The manifest gives the printed name in English; `label`, when the game's catalog
    names the card, gives it in the other languages ("Palourde" for a Clam)."""

    card: str
    name: str
    copy: int
    copies: int
    label: Msg | None = None

    def title(self, language: str) -> str:
        if self.label is None or language == DEFAULT_LANGUAGE:
            return self.name
        return render(self.label, language)

    def short(self, language: str = DEFAULT_LANGUAGE) -> str:
        """`Clam 3`, or `Storm Warning` for a single card."""
        name = self.title(language)
        return name if self.copies == 1 else say(language, "learn.copy", card=name, copy=self.copy)

    def asked(self, language: str = DEFAULT_LANGUAGE) -> str:
        """`Clam 3/20`, or `Storm Warning`."""
        name = self.title(language)
        return name if self.copies == 1 else \
            say(language, "learn.copy_of", card=name, copy=self.copy, copies=self.copies)


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
        found.append(Step(card, _name(manifest, kind), copy, copies, _label(family.name, kind)))
    return tuple(found)


def _manifest_order(manifest: seeds.Manifest) -> list[str]:
    if manifest.cards:
        return list(manifest.cards)
    order: list[str] = []
    for kind, data in manifest.kinds.items():
        copies = int(data.get("copies", 1))
        order += [kind] if copies == 1 else [f"{kind}#{n}" for n in range(1, copies + 1)]
    return order


def _label(family: str, kind: str) -> Msg | None:
    """The card's name in the game's own catalog, where it has one."""
    named = next((spec.card_name for spec in all_specs() if spec.deck == family and spec.card_name),
                 None)
    name = named(kind) if named else None
    if name is not None:
        return name
    if kind in ("decree", "action"):        # only the Flouk deck has these kinds
        return msg(f"learn.{kind}")
    return msg("learn.number", n=kind) if kind.isdigit() else None


def _name(manifest: seeds.Manifest | None, kind: str) -> str:
    """The card's printed name from the manifest; a bare number reads as `Card 7`."""
    name = manifest.name(kind) if manifest else kind
    if name == kind:                  # no name given: chief_mouta reads as Chief Mouta
        name = " ".join(word[:1].upper() + word[1:] for word in kind.split("_"))
    return render(msg("learn.number", n=name)) if name.isdigit() else name


class Enrollment:
    """Walks one deck's cards; `offer` each tag read, show `prompt()` in between.

        learning = Enrollment(registry, "palourde", "cafe1")
        learning.prompt()        # ["Learn deck cafe1", "Tap Basket 1/5", "0 of 59 done"]
        learning.offer("04A1B2C3D4E5F6")   # (True, "Basket 1 OK")

    Its lines are in `language`, which the screen or the command line sets.
    """

    def __init__(self, registry: DeckRegistry, game: str, deck_name: str | None = None,
                 language: str = DEFAULT_LANGUAGE):
        self.registry = registry
        self.language = language
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
        lines = [self._say("learn.deck", deck=self.deck),
                 self._say("learn.tap", card=step.asked(self.language)) if step else
                 self._say("learn.complete"),
                 self._say("learn.count", n=count, total=len(self.steps))]
        return lines

    def _say(self, key: str, **args) -> str:
        return say(self.language, key, **args)

    def offer(self, uid: str) -> tuple[bool, str]:
        """Enrol `uid` as the current card if it is a fresh tag: (accepted, message)."""
        step = self.current
        if step is None:
            return False, self._say("learn.complete")
        try:
            uid = normalize_uid(uid)
        except DeckError:
            return False, self._say("learn.unreadable")
        owner = self.registry.lookup(uid)
        if isinstance(owner, StaffRef):
            return False, self._say("ui.staff_card")
        if isinstance(owner, CardRef):
            return False, self._refusal(owner)
        player = self._player_card(uid)
        if player is not None:
            return False, self._say("learn.player_card", name=player)
        self.registry.add_tag(self.deck, self.family.name, uid, step.card)
        return True, self._say("learn.ok", card=step.short(self.language))

    def _player_card(self, uid: str) -> str | None:
        """Whose player card the tag is: a tag means one thing, and at setup it seats someone.
        A roster that does not read holds no card (the setup says why)."""
        try:
            holder = Roster(self.registry.state_dir).holder(uid)
        except (RosterError, OSError):
            return None
        return holder.short if holder else None

    def _refusal(self, owner: CardRef) -> str:
        if owner.deck != self.deck:
            return self._say("learn.other_deck", deck=owner.deck)
        step = next((s for s in self.steps if s.card == owner.card), None)
        return self._say("learn.already", card=step.short(self.language) if step else owner.card)


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
