"""What the café's signed lists have ever named, so the latest one can take back what it
no longer names: a staff card removed from the staff list, a player or a player card removed
from the roster. Kept in the state dir (`fleet-named.json`); cards and players this table
added itself, never named by the café, are not the café's to take back.
"""
from __future__ import annotations

import json
from pathlib import Path

from device.paths import write_atomic
from device.storage.quarantine import refuse

FILE = "fleet-named.json"
KINDS = ("staff", "cards", "players")
MOST = 5000                   # of each kind: a café's lists are far smaller


class Named:
    def __init__(self, state_dir: Path) -> None:
        self.state_dir, self.path = Path(state_dir), Path(state_dir) / FILE

    def read(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {kind: [] for kind in KINDS}
        except (OSError, ValueError, RecursionError) as exc:
            refuse(self.state_dir, self.path, exc)
            return {kind: [] for kind in KINDS}
        if not (isinstance(data, dict) and set(data) <= set(KINDS) and all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in data.values())):
            refuse(self.state_dir, self.path, "not the names the café's lists gave")
            return {kind: [] for kind in KINDS}
        return {kind: list(data.get(kind, [])) for kind in KINDS}

    def update(self, kind: str, now: set[str]) -> set[str]:
        """The latest list names `now`: what earlier lists named and this one does not."""
        named = self.read()
        gone = set(named[kind]) - now
        kept = [x for x in named[kind] if x in now] + sorted(now - set(named[kind]))
        named[kind] = kept[-MOST:]
        write_atomic(self.path, json.dumps(named, sort_keys=True))
        return gone

    def gone(self, kind: str, now: set[str]) -> set[str]:
        """Without keeping anything: what earlier lists named and `now` does not."""
        return set(self.read()[kind]) - now
