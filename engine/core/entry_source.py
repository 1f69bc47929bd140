"""Where the registry lists a group's entry points (the installed games): importlib.metadata,
unless its user put a reader of its own here first, `reader(group)` giving the entry points
(each with a name, a value and load()). The device's (device/cli/entry_points.py) reads the same
folders without importlib.metadata's imports, which cost a command about as long as the
interpreter's own start-up."""
from __future__ import annotations

from collections.abc import Callable, Iterable

TYPE_CHECKING = False                # as typing's, whose import every command would pay
if TYPE_CHECKING:
    from typing import Any, Protocol

    class Entry(Protocol):
        """An entry point, as importlib.metadata.EntryPoint has it."""
        @property
        def name(self) -> str: ...
        @property
        def value(self) -> str: ...
        def load(self) -> Any: ...

READERS: list[Callable[[str], Iterable[Entry]]] = []
