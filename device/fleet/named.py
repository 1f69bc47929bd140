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
FIELDS = (*KINDS, *(f"{kind}_gone" for kind in KINDS))     # what the latest list names; took back
MOST = 5000                   # of each kind: a café's lists are far smaller


class Named:
    def __init__(self, state_dir: Path) -> None:
        self.state_dir, self.path = Path(state_dir), Path(state_dir) / FILE

    def read(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {field: [] for field in FIELDS}
        except (OSError, ValueError, RecursionError) as exc:
            refuse(self.state_dir, self.path, exc)
            return {field: [] for field in FIELDS}
        if not (isinstance(data, dict) and set(data) <= set(FIELDS) and all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in data.values())):
            refuse(self.state_dir, self.path, "not the names the café's lists gave")
            return {field: [] for field in FIELDS}
        return {field: list(data.get(field, [])) for field in FIELDS}

    def update(self, kind: str, now: set[str]) -> set[str]:
        """The latest list names `now`: what the list before named and this one does not
        (now taken back, until a list names it again)."""
        named = self.read()
        gone = set(named[kind]) - now
        named[kind] = sorted(now)[:MOST]
        named[f"{kind}_gone"] = sorted((set(named[f"{kind}_gone"]) | gone) - now)[-MOST:]
        write_atomic(self.path, json.dumps(named, sort_keys=True))
        return gone

    def taken_back(self, kind: str) -> set[str]:
        """Everything the café's lists named once and its latest no longer names."""
        return set(self.read()[f"{kind}_gone"])
