"""The tables the café enrolled, on the café's machine: name -> public key, in the state dir
(`fleet-tables.json`). `tabletop fleet enrol` and `strike` change it and publish it, signed
with the admin key, as the café's list of tables (shared.py `tables_message`): a table left
out is struck off, and no reader takes its messages from then on.
"""
from __future__ import annotations

import json
from pathlib import Path

from device.paths import write_atomic
from device.storage.quarantine import refuse

from . import keys
from .identity import NAME

FILE = "fleet-tables.json"


class Enrolled:
    def __init__(self, state_dir: Path) -> None:
        self.state_dir, self.path = Path(state_dir), Path(state_dir) / FILE

    def tables(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as exc:
            refuse(self.state_dir, self.path, exc)
            return {}
        if not (isinstance(data, dict) and all(
                isinstance(k, str) and NAME.fullmatch(k) and keys.public_key(v) is not None
                for k, v in data.items())):
            refuse(self.state_dir, self.path, "not a list of tables and public keys")
            return {}
        return data

    def enrol(self, table: str, public: str) -> dict[str, str]:
        if not NAME.fullmatch(table) or table == "shared":
            raise ValueError(f"{table!r} is not a table name")
        if keys.public_key(public.lower()) is None:
            raise ValueError(f"{public!r} is not a public key (64 hex digits: tabletop fleet keys "
                             "shows the table's)")
        return self._keep({**self.tables(), table: public.lower()})

    def strike(self, table: str) -> dict[str, str]:
        tables = self.tables()
        if tables.pop(table, None) is None:
            raise ValueError(f"no enrolled table {table!r}")
        return self._keep(tables)

    def _keep(self, tables: dict[str, str]) -> dict[str, str]:
        write_atomic(self.path, json.dumps(tables, sort_keys=True, indent=1))
        return tables
