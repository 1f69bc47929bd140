"""The four input events.

A tap is the chance outcome: the engine never draws random numbers, the
physical shuffle does. Each event has one canonical string form, the same as
a line of an event script.
"""
from __future__ import annotations

from collections.abc import Mapping

from .record import record


@record
class Tap:
    """A card read on the reader, named by its card id (`clam#3`, `7#2`, `KS`)."""

    card: str

    def __str__(self) -> str:
        return f"tap {self.card}"


@record
class Choose:
    """A menu answer: a player name or an option key."""

    option: str

    def __str__(self) -> str:
        return f"choose {self.option}"


@record
class Confirm:
    """SELECT on an information or instruction screen."""

    def __str__(self) -> str:
        return "select"


@record
class Cancel:
    """Short BACK inside a sub-prompt, before anything is committed."""

    def __str__(self) -> str:
        return "back"


Event = Tap | Choose | Confirm | Cancel
EVENT_TYPES: tuple[type, ...] = (Tap, Choose, Confirm, Cancel)


def event_to_json(event: Event) -> dict[str, str]:
    if isinstance(event, Tap):
        return {"type": "tap", "card": event.card}
    if isinstance(event, Choose):
        return {"type": "choose", "option": event.option}
    return {"type": "select" if isinstance(event, Confirm) else "back"}


def event_from_json(data: Mapping[str, object]) -> Event:
    kind, card, option = data.get("type"), data.get("card"), data.get("option")
    if kind == "tap" and isinstance(card, str):
        return Tap(card)
    if kind == "choose" and isinstance(option, str):
        return Choose(option)
    if kind == "select":
        return Confirm()
    if kind == "back":
        return Cancel()
    raise ValueError(f"not an event: {data!r}")


def event_from_string(text: str) -> Event:
    """Parse `tap X`, `choose X`, `select` or `back`."""
    words = text.split()
    if len(words) == 2 and words[0] == "tap":
        return Tap(words[1])
    if len(words) == 2 and words[0] == "choose":
        return Choose(words[1])
    if words == ["select"]:
        return Confirm()
    if words == ["back"]:
        return Cancel()
    raise ValueError(f"not an event: {text!r}")
