"""The link's outbox: what waits to be published while the broker is away or busy.

Retained topics keep their latest value only; other messages (finished games and the like:
the events themselves leave from the journal) queue up to a limit, the oldest going first.
"""
from __future__ import annotations

import threading
from collections import deque

OUTBOX_LIMIT = 500                    # finished games and the like; events leave from the journal


class Outbox:
    """Messages waiting for the link: retained topics keep their latest value, events queue."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.dropped = 0
        self.closed = False
        self._events: deque[tuple[str, bytes]] = deque()
        self._retained: dict[str, bytes] = {}
        self._ready = threading.Condition()

    def __len__(self) -> int:
        return len(self._events) + len(self._retained)

    def put(self, topic: str, payload: bytes, retain: bool = False) -> None:
        with self._ready:
            if retain:
                self._retained.pop(topic, None)
                self._retained[topic] = payload
            else:
                if len(self._events) >= self.limit:
                    self._events.popleft()
                    self.dropped += 1
                self._events.append((topic, payload))
            self._ready.notify()

    def take(self, timeout: float) -> tuple[str, bytes, bool] | None:
        """The next message (retained values first: they are the freshest news), or None."""
        with self._ready:
            if not self._ready.wait_for(lambda: len(self) > 0 or self.closed, timeout) \
                    or not len(self):
                return None
            if self._retained:
                topic = next(iter(self._retained))
                return topic, self._retained.pop(topic), True
            return (*self._events.popleft(), False)

    def close(self) -> None:
        """Stop waiting in `take`: the sender is leaving."""
        with self._ready:
            self.closed = True
            self._ready.notify_all()

    def give_back(self, message: tuple[str, bytes, bool]) -> None:
        """Put back a message paho would not take, ahead of the others (unless newer news came)."""
        topic, payload, retain = message
        with self._ready:
            if not retain:
                self._events.appendleft((topic, payload))
            elif topic not in self._retained:
                self._retained = {topic: payload, **self._retained}
            self._ready.notify()
