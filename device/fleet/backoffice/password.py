"""The staff's password: only its scrypt hash is kept, in the dashboard's state dir.

`tabletop dashboard password` reads a new one from stdin. The file holds scrypt's
parameters, the salt and the hash (JSON, readable by its owner only); a check costs
scrypt's work factor, which is what makes guessing slow beside the 429 after 5 wrong.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

FILE = "dashboard-password.json"
N, R, P = 2 ** 14, 8, 1          # scrypt's cost: 16 MiB and some 50 ms on a Pi 4
LENGTH = 32
SHORTEST, LONGEST = 8, 256


class PasswordRefused(ValueError):
    pass


def check_new(text: str) -> str:
    """A new password as typed: one line of SHORTEST to LONGEST characters."""
    text = text.rstrip("\r\n")
    if "\n" in text or "\r" in text:
        raise PasswordRefused("a password is one line")
    if len(text) < SHORTEST:
        raise PasswordRefused(f"a password has at least {SHORTEST} characters")
    if len(text) > LONGEST:
        raise PasswordRefused(f"a password has at most {LONGEST} characters")
    return text


def _hash(text: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(text.encode(), salt=salt, n=n, r=r, p=p, maxmem=2 * 128 * n * r + 2 ** 20,
                          dklen=LENGTH)


def store(state_dir: Path, text: str, n: int = N) -> Path:
    """Keep the hash of a new password (checked), replacing any before it. `n`: scrypt's cost,
    kept beside the hash (a test's own password may be cheaper to check)."""
    text = check_new(text)
    salt = secrets.token_bytes(16)
    record = {"scrypt": {"n": n, "r": R, "p": P},
              "salt": base64.b64encode(salt).decode(),
              "hash": base64.b64encode(_hash(text, salt, n, R, P)).decode()}
    state_dir = Path(state_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    path, part = state_dir / FILE, state_dir / (FILE + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(record, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)
    return path


class Password:
    """The stored hash, read once; `None` when no password has been set."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / FILE

    def is_set(self) -> bool:
        return self.path.is_file()

    def matches(self, text: object) -> bool:
        if not isinstance(text, str) or len(text) > LONGEST:
            return False
        try:
            record = json.loads(self.path.read_text())
            cost = record["scrypt"]
            salt, wanted = base64.b64decode(record["salt"]), base64.b64decode(record["hash"])
            got = _hash(text, salt, int(cost["n"]), int(cost["r"]), int(cost["p"]))
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return hmac.compare_digest(got, wanted)
