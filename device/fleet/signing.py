"""The café's tag key: staff tags travel as keyed hashes of their UIDs.

A broker reader learns no staff tag it could copy: the staff list names each card by the
HMAC-SHA256 of `staff:<UID>` under the tag key (`fleet.key`, the same in every table's config,
never published). It signs nothing: the café's admin key does (envelope.py). A table that
imports the list enrols a tag when it is first tapped (`StaffRoll`).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
from pathlib import Path

from device.paths import write_atomic
from device.storage import quarantine

log = logging.getLogger(__name__)

ROLL_FILE = "fleet-staff.json"


def staff_hash(key: str, uid: str) -> str:
    """A staff tag as it is published: keyed, so it names the tag only to the café's tables."""
    return hmac.new(key.encode(), b"staff:" + uid.upper().encode(), hashlib.sha256).hexdigest()


class StaffRoll:
    """Staff cards imported from the fleet, in the state dir: `pending`, hash -> label, not
    tapped here yet (the first tap of such a tag makes it a staff card of this table), and
    `enrolled`, UID -> label, those that were, so `deck staff list` can say where each came
    from. (A file of an older version holds only the pending ones, flat.)"""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / ROLL_FILE

    def _read(self) -> tuple[dict[str, str], dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except OSError:                           # none yet, or not readable: nothing pending
            return {}, {}
        except (ValueError, RecursionError) as exc:     # not UTF-8, not JSON, nested too deep
            data = exc
        if _labels(data):
            return data, {}
        if isinstance(data, dict) and set(data) == {"pending", "enrolled"} \
                and _labels(data["pending"]) and _labels(data["enrolled"]):
            return data["pending"], data["enrolled"]
        quarantine.refuse(self.path.parent, self.path, "not a list of staff tags and labels")
        return {}, {}

    def _write(self, pending: dict[str, str], enrolled: dict[str, str]) -> None:
        write_atomic(self.path, json.dumps({"pending": pending, "enrolled": enrolled}, sort_keys=True))

    def pending(self) -> dict[str, str]:
        return self._read()[0]

    def enrolled(self) -> dict[str, str]:
        return self._read()[1]

    def add(self, cards: dict[str, str]) -> None:
        pending, enrolled = self._read()
        self._write({**pending, **cards}, enrolled)

    def claim(self, key: str, uid: str) -> str | None:
        """The label of a pending tag (taken off the roll, kept as enrolled), or None."""
        pending, enrolled = self._read()
        label = pending.pop(staff_hash(key, uid), None)
        if label is not None:
            self._write(pending, {**enrolled, uid.upper(): label})
        return label

    def drop(self, hashes: set[str]) -> list[str]:
        """Take these hashes off the roll, waiting or enrolled from it; the labels taken."""
        pending, enrolled = self._read()
        taken = [label for h, label in pending.items() if h in hashes]
        if taken:
            self._write({h: label for h, label in pending.items() if h not in hashes}, enrolled)
        return taken

    def forget(self, key: str, uid: str) -> str | None:
        """`deck staff remove` of a tag waiting for its first tap: its label, or None."""
        pending, enrolled = self._read()
        label = pending.pop(staff_hash(key, uid), None)
        if label is not None:
            self._write(pending, enrolled)
        return label


def _labels(data: object) -> bool:
    """A JSON object of strings to strings (tags or hashes to labels)."""
    return isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
