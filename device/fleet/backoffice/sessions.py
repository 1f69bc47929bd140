"""The staff's sessions, kept on the server: the signed cookie only names one.

A login opens a new session (a new id, whatever the cookie held before: no fixation), with
its own CSRF token; a session ends at logout or SESSION_S after its login, whichever comes
first. Wrong passwords are counted per address: TRIES in a minute and the next login is
answered 429 until the oldest of them is a minute old. Both run on a given clock (tests give
a virtual one) and are bounded (a storm of addresses or logins cannot fill memory).
"""
from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable

SESSION_S = 8 * 3600.0          # an evening's shift
MOST_SESSIONS = 64              # the oldest one ends beyond
TRIES, WINDOW_S = 5, 60.0       # wrong passwords a minute from one address
MOST_ADDRESSES = 4096


class Sessions:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._open: OrderedDict[str, tuple[float, str]] = OrderedDict()   # id: (ends, csrf)

    def open(self) -> tuple[str, str]:
        """A new session: its id and its CSRF token."""
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        self._open[sid] = (self.clock() + SESSION_S, csrf)
        while len(self._open) > MOST_SESSIONS:
            self._open.popitem(last=False)
        return sid, csrf

    def csrf(self, sid: object) -> str | None:
        """The session's CSRF token while it lasts, else None (and it is forgotten)."""
        if not isinstance(sid, str) or sid not in self._open:
            return None
        ends, csrf = self._open[sid]
        if self.clock() >= ends:
            del self._open[sid]
            return None
        return csrf

    def checks(self, sid: object, token: str | None) -> bool:
        """The change comes with its session's own CSRF token."""
        csrf = self.csrf(sid)
        return csrf is not None and token is not None and \
            hmac.compare_digest(csrf.encode(), token.encode())

    def end(self, sid: object) -> None:
        if isinstance(sid, str):
            self._open.pop(sid, None)


class Tries:
    """Wrong passwords per address, over the last WINDOW_S."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._wrong: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, address: str) -> deque[float]:
        wrong = self._wrong.get(address, deque())
        while wrong and self.clock() - wrong[0] >= WINDOW_S:
            wrong.popleft()
        return wrong

    def limited(self, address: str) -> bool:
        return len(self._recent(address)) >= TRIES

    def wrong(self, address: str) -> None:
        wrong = self._recent(address)
        wrong.append(self.clock())
        self._wrong[address] = wrong
        self._wrong.move_to_end(address)
        while len(self._wrong) > MOST_ADDRESSES:
            self._wrong.popitem(last=False)
