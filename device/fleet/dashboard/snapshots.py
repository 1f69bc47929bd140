"""The wall screen's data as bytes, made once per board version and language.

Readers cost the same however many they are: every reader of /state.json and /events gets
the same serialized board. The page also says how long games have lasted by now, so a quiet
board is made again after FRESH_S for /state.json (a live reader gets it with the next change).
"""
from __future__ import annotations

import json
import threading
import time

from .board import Board
from .page import page

FRESH_S = 1.0                          # the oldest page served for an unchanged board


class Snapshot:
    """One version of the page in one language, serialized once for every reader."""

    def __init__(self, view: dict) -> None:
        self.made_at = time.monotonic()
        self.version: int = view["version"]
        self.body = json.dumps(view, separators=(",", ":")).encode()
        self.event = b"data: " + self.body + b"\n\n"


class Snapshots:
    """The page as bytes, made at most once per board version and language (and FRESH_S)."""

    def __init__(self, board: Board, finished: int) -> None:
        self.board, self.finished = board, finished
        self.made = 0                                 # how many were made: what bench counts
        self._latest: dict[str, Snapshot] = {}
        self._lock = threading.Lock()

    def get(self, language: str) -> Snapshot:
        with self._lock:                             # one reader makes it, the others wait
            latest = self._latest.get(language)
            if latest is None or latest.version != self.board.version \
                    or time.monotonic() - latest.made_at >= FRESH_S:
                latest = Snapshot(page(self.board.view(), language, self.finished))
                self._latest[language] = latest
                self.made += 1
            return latest
