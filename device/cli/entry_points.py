"""The entry points of one group, read from the distributions' .dist-info (and .egg-info) folders
on sys.path as importlib.metadata reads them, without importing it.

importlib.metadata imports the email package, zipfile, csv and more: about as long as the
interpreter's own start-up, which every command that names a game would pay (the registry finds
the games through the `tabletop.games` group). The same reading costs a directory listing per
sys.path entry and one small file per distribution that has entry points. As importlib.metadata
does, the first distribution of a name on sys.path is the one taken (a name normalized as
PEP 503 says, from the folder's name); folders inside zip files on sys.path are not read.
"""
from __future__ import annotations

import importlib
import os
import re
import sys
from functools import reduce

FOLDERS = (".dist-info", ".egg-info")
VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class EntryPoint:
    """What the registry reads of an importlib.metadata.EntryPoint: its name, value and load()."""
    __slots__ = ("name", "value", "group")

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name, self.value, self.group = name, value, group

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"

    def load(self) -> object:
        """The object the value names (`module:attr.attr`), its module imported."""
        found = VALUE.match(self.value)
        if found is None:
            raise ValueError(f"not an entry point: {self.value!r}")
        module = importlib.import_module(found["module"])
        return reduce(getattr, found["attr"].split(".") if found["attr"] else [], module)


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of `group` of the distributions on sys.path, the first of each name."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for folder in _distributions(seen):
        found += [entry for entry in _read(folder) if entry.group == group]
    return found


def _distributions(seen: set[str]):
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            stem, extension = os.path.splitext(name)
            if extension not in FOLDERS:
                continue
            normalized = re.sub(r"[-_.]+", "_", stem.partition("-")[0]).lower()
            if normalized in seen:
                continue
            seen.add(normalized)
            yield os.path.join(entry or ".", name)


def _read(folder: str) -> list[EntryPoint]:
    """The entry points an entry_points.txt lists: `[group]` sections of `name = value` lines
    (`#` a comment). A line that importlib.metadata cannot read (no `=`) makes it refuse every
    distribution's entry points; here it is left out."""
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        return []
    entries, group = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
        elif group is not None and "=" in line:      # importlib fails on a line without one
            name, _, value = line.partition("=")
            entries.append(EntryPoint(name.strip(), value.strip(), group))
    return entries
