"""Who may use the page: the join code the OLED shows, the sessions it opened, and the
wrong codes each address has tried.

The code is 6 digits, new for each game (`renew`), and never written to the log. A code
given right opens a session: a random cookie, good until the game it was opened for ends.
A wrong code counts against the address it came from: past WRONG_MAX in WRONG_WINDOW_S the
address is answered "too many" without the code being compared. Everything here is
bounded, whatever a client sends: sessions, addresses and their tries.
"""
from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable

DIGITS = 6
WRONG_MAX = 5                  # wrong codes an address may give in a window
WRONG_WINDOW_S = 60.0
SESSIONS_MAX = 64              # phones at one table, with room for reloads and browsers
ADDRESSES_MAX = 1024           # addresses whose wrong codes are remembered
COOKIE = "tabletop_session"


class Joining:
    """The join code and its sessions; safe to use from the web's thread and the loop's."""

    def __init__(self, clock: Callable[[], float],
                 token: Callable[[], str] = lambda: secrets.token_urlsafe(32),
                 digits: Callable[[], str] = lambda: f"{secrets.randbelow(10 ** DIGITS):0{DIGITS}d}"
                 ) -> None:
        self.clock, self._token, self._digits = clock, token, digits
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, None] = OrderedDict()
        self._wrong: OrderedDict[str, deque[float]] = OrderedDict()
        self.code = digits()

    def renew(self) -> None:
        """A new game: a new code, and the sessions of the last one end."""
        with self._lock:
            self.code = self._digits()
            self._sessions.clear()

    def limited(self, address: str) -> bool:
        """Has this address given too many wrong codes lately?"""
        with self._lock:
            return len(self._recent(address)) >= WRONG_MAX

    def join(self, address: str, code: object) -> str | None:
        """A new session's cookie for the right code; None (and one more wrong try) else."""
        with self._lock:
            right = isinstance(code, str) and hmac.compare_digest(code.encode(), self.code.encode())
            if not right:
                tries = self._recent(address)
                tries.append(self.clock())
                self._wrong[address] = tries
                self._wrong.move_to_end(address)
                while len(self._wrong) > ADDRESSES_MAX:
                    self._wrong.popitem(last=False)
                return None
            token = self._token()
            self._sessions[token] = None
            while len(self._sessions) > SESSIONS_MAX:       # the oldest phone joins again
                self._sessions.popitem(last=False)
            return token

    def admits(self, token: str | None) -> bool:
        with self._lock:
            return token is not None and token in self._sessions

    @property
    def sessions(self) -> int:
        return len(self._sessions)

    def _recent(self, address: str) -> deque[float]:
        tries = self._wrong.get(address, deque())
        while tries and tries[0] <= self.clock() - WRONG_WINDOW_S:
            tries.popleft()
        if not tries:
            self._wrong.pop(address, None)
        return tries
