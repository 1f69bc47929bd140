"""Simulated reader and buttons for `--sim` and tests: driven by calls, not by hands.

`SimReader` is a TagReader whose field holds whatever `place()` put there;
`SimButtons` emits the same events as the gpiozero buttons. Both are
thread-safe for the simple hand-offs the simulator does (one attribute set).
"""
from __future__ import annotations

from collections.abc import Callable

from hardware import iso14443
from hardware.errors import ReaderError
from hardware.events import BUTTON_NAMES, ButtonHeld, ButtonPressed, HardwareEvent


def _canonical_uid(uid: str) -> str:
    try:
        raw = bytes.fromhex(uid)
    except ValueError:
        raw = b""
    if len(raw) not in iso14443.UID_LENGTHS:
        raise ValueError(f"a UID is 4, 7 or 10 bytes of hex, not {uid!r}")
    return iso14443.uid_hex(raw)


class SimReader:
    """A reader with a programmable field. `unplugged` makes polls fail like a dead part."""

    def __init__(self) -> None:
        self._uid: str | None = None
        self.unplugged = False
        self.polls = 0

    def place(self, uid: str) -> None:
        """Put a tag on the reader (replacing any other)."""
        self._uid = _canonical_uid(uid)

    def lift(self) -> None:
        self._uid = None

    def poll(self) -> str | None:
        self.polls += 1
        if self.unplugged:
            raise ReaderError("simulated reader unplugged")
        return self._uid

    def close(self) -> None:
        self._uid = None


class SimButtons:
    """UP, DOWN, SELECT and BACK as method calls."""

    def __init__(self, emit: Callable[[HardwareEvent], None]) -> None:
        self._emit = emit

    def press(self, name: str) -> None:
        self._emit(ButtonPressed(self._known(name)))

    def hold(self, name: str) -> None:
        self._emit(ButtonHeld(self._known(name)))

    def close(self) -> None:
        """Nothing to release; here so the simulator can treat both kinds alike."""

    @staticmethod
    def _known(name: str) -> str:
        if name.upper() not in BUTTON_NAMES:
            raise ValueError(f"no button {name!r}: one of {', '.join(BUTTON_NAMES)}")
        return name.upper()
