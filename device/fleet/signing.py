"""The café's fleet key: what makes shared decks and staff lists authentic.

Any client of the broker can publish, so a shared deck or staff list counts only when it
carries `sig`, an HMAC-SHA256 made with the fleet key (`fleet.key` in each table's config,
never published) over the canonical JSON of the rest of the payload: keys sorted, no
spaces, UTF-8. Staff tags travel as keyed hashes of their UIDs, so a broker reader learns
no tag it could copy; a table that imports the list enrols a tag when it is first tapped
(`StaffRoll`).
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


def canonical(data: dict) -> bytes:
    # a lone surrogate (JSON can escape one) is no UTF-8: kept as is, so any text has one form
    return json.dumps(data, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8", "surrogatepass")


def signature(data: dict, key: str) -> str:
    unsigned = {k: v for k, v in data.items() if k != "sig"}
    return hmac.new(key.encode(), canonical(unsigned), hashlib.sha256).hexdigest()


def sign(data: dict, key: str | None) -> dict:
    if not key:
        raise ValueError("sharing needs the café's fleet key: set fleet.key in the config")
    return {**data, "sig": signature(data, key)}


def authentic(data: dict, key: str | None, topic: str) -> bool:
    """True when `data` is signed with `key`; otherwise False, logged in one line."""
    given = data.get("sig")
    if not key:
        why = "this table has no fleet key (fleet.key)"
    elif not isinstance(given, str):
        why = "unsigned"
    elif not hmac.compare_digest(given, signature(data, key)):
        why = "badly signed"
    else:
        return True
    log.warning("fleet: refused the shared data on %.80s: %s", topic, why)
    return False


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


def _labels(data: object) -> bool:
    """A JSON object of strings to strings (tags or hashes to labels)."""
    return isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
