"""Screens gathered with where they were seen, and the cuts the display's layout finds in
them, each said in one line that names the language, the screen, the place, the text and the
catalog keys the text comes from (a failing test then says which text to shorten)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from device.ui.layout import layout
from device.ui.screen import Screen
from engine.core.text import catalog, forms

from .table import SimTable

FIELD = re.compile(r"\{[^}]*\}")
NAMED = 4                 # the fewest letters of its own a catalog text needs to be named by


@dataclass(frozen=True)
class Seen:
    language: str
    where: str            # the mode and how the screen was reached
    screen: Screen


class Watched(SimTable):
    """A SimTable that keeps each frame with its language, its mode and the line it followed."""

    def __init__(self, state_dir, language: str = "en") -> None:
        super().__init__(state_dir, language)
        self.seen: list[Seen] = []
        self.after = "the start"
        self.lines = 0

    def run(self, lines: str) -> Watched:
        for line in filter(None, (line.strip() for line in lines.splitlines())):
            self.lines += 1
            self.after = f"line {self.lines} {line!r}"
            super().run(line)
        return self

    def _frame(self, image, screen) -> None:
        super()._frame(image, screen)
        self.seen.append(Seen(self.app.language, f"{type(self.app.mode).__name__} screen after "
                                                 f"{self.after}", screen))


def cuts(seen: Iterable[Seen]) -> list[str]:
    """Every cut in the screens seen, one line each; the same cut on the same screen once."""
    first: dict[tuple[str, Screen], str] = {}        # a screen laid out once, named where first seen
    for view in seen:
        first.setdefault((view.language, view.screen), view.where)
    said: set[str] = set()
    for (language, screen), where in first.items():
        for cut in layout(screen).cuts:
            said.add(f"{language}, {where}, {cut.place}: {cut.text!r} drawn as {cut.shown!r} "
                     f"(from {', '.join(keys_of(cut.text, language)) or '?'})")
    return sorted(said)


def assert_uncut(seen: Iterable[Seen]) -> None:
    found = cuts(seen)
    assert not found, f"{len(found)} cut(s):\n" + "\n".join(found)


def keys_of(text: str, language: str) -> list[str]:
    """The catalog keys a line of whose text, its arguments standing for anything, is `text`;
    failing those, the ones such a line of is in `text` or holds it: the longest-written
    first, three at most."""
    whole: list[str] = []
    found: dict[str, int] = {}
    for key, template in catalog(language).items():
        for line in (line for form in forms(template) for line in form.split("\n")):
            own = len(FIELD.sub("", line).strip())
            pattern = ".*?".join(map(re.escape, FIELD.split(line)))
            if re.fullmatch(pattern, text.strip()) and own:
                whole.append(key)
            elif own >= NAMED and (re.search(pattern, text) or text.strip() in line):
                found[key] = max(found.get(key, 0), own)
    return sorted(set(whole))[:3] or sorted(found, key=lambda key: -found[key])[:3]
