"""The fleet's signing keys (Ed25519, through `cryptography`): one per table, one for the café.

A table signs only its own topics (state, events, finished games, online) with its own key,
made on the table and kept in its state dir (`fleet-keys/table.key`, readable by its owner
only). The café's admin key signs what every table takes as the café's word: the shared
decks, staff list, roster and the list of enrolled tables. It is made only where the admin
works (`tabletop fleet keys --admin`) and never leaves that machine; the tables hold only its
public half (`fleet.admin_key` in their config). A stolen table's SD card holds one table's
key: it can speak for that table until the next signed list of tables strikes it off, and
can sign nothing shared.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from device.storage.quarantine import refuse

FOLDER = "fleet-keys"
TABLE, ADMIN = "table.key", "admin.key"
PUBLIC = re.compile(r"[0-9a-f]{64}")          # a public key as configs and lists write it
SIGNATURE = re.compile(r"[0-9a-f]{128}")


class KeyMissing(ValueError):
    """No key of that kind here: one line saying how to make it."""


def _ed25519():
    from cryptography.hazmat.primitives.asymmetric import ed25519
    return ed25519


def public_text(private) -> str:
    """The public half of `private`, as 64 hex digits."""
    from cryptography.hazmat.primitives import serialization
    raw = private.public_key().public_bytes(serialization.Encoding.Raw,
                                            serialization.PublicFormat.Raw)
    return raw.hex()


def public_key(text: object):
    """The public key written as 64 hex digits; None for anything else."""
    if not (isinstance(text, str) and PUBLIC.fullmatch(text)):
        return None
    try:
        return _ed25519().Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except ValueError:
        return None


def verified(public, signature: object, data: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    if not (isinstance(signature, str) and SIGNATURE.fullmatch(signature)):
        return False
    try:
        public.verify(bytes.fromhex(signature), data)
    except InvalidSignature:
        return False
    return True


def load(state_dir: Path, name: str):
    """The private key kept as `name` in the state dir; None if there is none (a file that is
    no key is set aside, in one line)."""
    path = Path(state_dir) / FOLDER / name
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        refuse(Path(state_dir), path, exc)
        return None
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        refuse(Path(state_dir), path, "not an Ed25519 key")
        return None
    return _ed25519().Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text))


def make(state_dir: Path, name: str):
    """The key kept as `name`, made (readable by its owner only) when there is none."""
    found = load(state_dir, name)
    if found is not None:
        return found
    from cryptography.hazmat.primitives import serialization
    private = _ed25519().Ed25519PrivateKey.generate()
    raw = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    folder = Path(state_dir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(raw.hex() + "\n")
        out.flush()
        os.fsync(out.fileno())
    return private


def needed(state_dir: Path, name: str):
    """The key kept as `name`, else KeyMissing saying how to make it."""
    found = load(state_dir, name)
    if found is None:
        how = "tabletop fleet keys --admin (on the café's machine only)" if name == ADMIN \
            else "tabletop fleet keys"
        raise KeyMissing(f"no {'admin' if name == ADMIN else 'table'} key in "
                         f"{Path(state_dir) / FOLDER}: {how}")
    return found
