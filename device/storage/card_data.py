"""A café's own card data (Flouk's printed white numbers, Decrees and effects).

Two files under `<state dir>/cards/`, both optional:
- `<deck>.toml`, a checked card file installed with `tabletop cards install`; it replaces the
  shipped one for every game on this table.
- `<deck>.learned.json`, the details the tables learned while playing (an Action's people, a
  white number). They fill in what the card file leaves `unknown`, so a table
  asks for each detail only once. `learned_details` and `merge_details` are the pair another
  table's details travel through, like decks.

A file there that does not read, or does not pass the checks `tabletop cards install` makes,
is set aside (quarantine.py): the games go on with the shipped card data and what the
learned file still holds that is good.
"""
from __future__ import annotations

import json
from pathlib import Path

import seeds
from device.paths import write_atomic
from device.plugin import Answered, Plugin, Reading
from engine.core.spec import GameSpec

from . import quarantine

Details = dict[str, dict[str, int | str]]         # card id -> {"people" | "white": value}


def card_file(state_dir: Path, deck: str) -> Path:
    return state_dir / "cards" / f"{deck}.toml"


def learned_file(state_dir: Path, deck: str) -> Path:
    return state_dir / "cards" / f"{deck}.learned.json"


def game_data(spec: GameSpec, state_dir: Path | None) -> dict | None:
    """The card data `spec` starts with on this table: the card file, plus what was learned."""
    text = installed_text(state_dir, spec.deck) if state_dir is not None else None
    data = seeds.game_data(spec.id, spec.deck, text)
    if data is None or state_dir is None:
        return data
    return seeds.with_learned(data, learned_details(state_dir, spec.deck))


def installed_text(state_dir: Path, deck: str) -> str | None:
    """The text of the card file installed for `deck`, if there is one that passes its checks."""
    path = card_file(state_dir, deck)
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8")
        found = problems(deck, text)
    except OSError as exc:
        quarantine.refuse(state_dir, path, f"cannot read ({exc.strerror or exc})")
        return None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        found = [f"not a card file ({exc})"]
    if found:
        quarantine.refuse(state_dir, path, found)
        return None
    return text


def problems(deck: str, text: str) -> list[str]:
    """What is wrong with a card file, each problem naming the card and the field."""
    return seeds.card_file_problems(deck, text)


def install(state_dir: Path, deck: str, text: str) -> list[str]:
    """Check, then install a card file; nothing is written when there is a problem."""
    found = problems(deck, text)
    if not found:
        write_atomic(card_file(state_dir, deck), text)
    return found


# ---- learned details ------------------------------------------------------------

def read_learned(state_dir: Path, deck: str) -> tuple[Details, list[str]]:
    """The learned details kept on this table, and a line for each part that cannot be used
    (a damaged or hand-edited file is never trusted blindly)."""
    path = learned_file(state_dir, deck)
    if not path.exists():
        return {}, []
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return {}, [f"{path.name}: unreadable ({exc.strerror or exc})"]
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return {}, [quarantine.refuse(state_dir, path, f"unreadable ({exc})")]
    good, bad = seeds.learned_problems(deck, found)
    if bad:
        line = quarantine.refuse(state_dir, path, bad)
        if not path.exists() and good:     # moved aside whole: the good details stay in use
            _write(state_dir, deck, good)
        return good, [line]
    return good, bad


def learned_details(state_dir: Path, deck: str) -> Details:
    """What this table's games have learned about the deck's cards: the part to publish."""
    return read_learned(state_dir, deck)[0]


def merge_details(state_dir: Path, deck: str, details) -> list[str]:
    """Keep learned details from a game or another table. A detail this table knows with
    another value is kept as it is and reported; bad entries are reported and skipped."""
    good, found = seeds.learned_problems(deck, details)
    kept = learned_details(state_dir, deck)
    changed = False
    for card, values in good.items():
        for detail, value in values.items():
            have = kept.get(card, {}).get(detail)
            if have is None:
                kept.setdefault(card, {})[detail] = value
                changed = True
            elif have != value:
                found.append(f"{card}: {detail}: this table has {have!r}, not {value!r}")
    if changed:
        _write(state_dir, deck, kept)
    return found


def forget_details(state_dir: Path, deck: str, details: Details) -> None:
    """Undo took these answers back: forget each one still kept with the same value."""
    kept = learned_details(state_dir, deck)
    for card, values in details.items():
        for detail, value in values.items():
            if kept.get(card, {}).get(detail) == value:
                del kept[card][detail]
    _write(state_dir, deck, {card: values for card, values in kept.items() if values})


def _write(state_dir: Path, deck: str, details: Details) -> None:
    write_atomic(learned_file(state_dir, deck),
                 json.dumps(details, indent=1, sort_keys=True) + "\n")


class LearnedCards(Plugin):
    """Keeps each detail a game learns (its tally's `learned`) in the café's card data as soon
    as the journal holds the answer; an undo of the answer takes it back out."""

    order = 50

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir

    def on_outcome(self, app, outcome: Answered) -> None:
        if not outcome.accepted or app.session is None:
            return
        reading, deck = app.reading(), app.session.spec.deck
        before, after = _learned(reading, outcome.before), _learned(reading, outcome.after)
        if after != before:
            merge_details(self.state_dir, deck, _minus(after, before))
            forget_details(self.state_dir, deck, _minus(before, after))


def _learned(reading: Reading, state) -> Details:
    return {card: dict(details) for card, details in (reading.tally(state).learned or {}).items()}


def _minus(a: Details, b: Details) -> Details:
    """The details of `a` that `b` does not hold with the same value."""
    out: Details = {}
    for card, values in a.items():
        for detail, value in values.items():
            if b.get(card, {}).get(detail) != value:
                out.setdefault(card, {})[detail] = value
    return out
