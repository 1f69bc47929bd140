"""House rules and language per table, from the back office (device/fleet/defaults.py).

Staff choose an enrolled table, a game and its options' values, and the table's language. The
change is checked by the very function the table checks the message with
(device/storage/house_defaults.py `checked`), signed with the café's admin key, kept here
(`cafe-house-rules.json`: what each table was last sent, for the page to show), then sent
retained on the table's own topic, which takes it at its next game. A refusal changes nothing.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

import engine
from device.clock import SystemClock
from device.fleet.defaults import defaults_message
from device.fleet.enrolled import Enrolled
from device.fleet.envelope import Signer
from device.fleet.retained import send_retained
from device.paths import write_atomic
from device.storage.house_defaults import DefaultsRefused, HouseDefaults, checked
from device.storage.quarantine import refuse
from device.ui.house_rules import option_name, value_name
from engine.core.catalog import LANGUAGES
from engine.core.text import render

from .sharing import SHARE_S, shared

log = logging.getLogger(__name__)

FILE = "cafe-house-rules.json"


class DefaultsDesk:
    """Each table's defaults as the café last sent them; `settings` is the broker's (None:
    kept here, not sent)."""

    def __init__(self, state_dir: Path, settings=None) -> None:
        self.state_dir, self.settings = Path(state_dir), settings
        self.path = self.state_dir / FILE
        # the games taken in as the dashboard starts: its worker threads never race to find them
        self.specs = {spec.id: spec for spec in engine.all_specs()}

    def sent(self) -> dict[str, HouseDefaults]:
        """Table -> its defaults; a file that does not read is set aside in one line."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise DefaultsRefused("not an object of tables")
            return {table: checked(given.get("games"), given.get("language"), self.specs)
                    for table, given in data.items() if isinstance(given, dict)}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as exc:      # DefaultsRefused too
            refuse(self.state_dir, self.path, exc)
            return {}

    def change(self, table: str, game: str, options: dict, language: str) -> dict:
        """`game`'s options for `table` (an empty object: the rules' own again; no game: the
        language alone) and its language ("": as the table's staff chose it), signed, kept,
        then sent. DefaultsRefused or KeyMissing: nothing changed."""
        if table not in Enrolled(self.state_dir).tables():
            raise DefaultsRefused(f"{table!r} is not an enrolled table (tabletop fleet enrol)")
        if not game and options:
            raise DefaultsRefused("options need their game")
        sent = self.sent()
        games = dict(sent.get(table, HouseDefaults()).games)
        if game:
            games[game] = options
        taken = checked(games, language or None, self.specs)
        defaults = HouseDefaults({g: o for g, o in taken.games.items() if o}, taken.language)
        message = defaults_message(Signer.admin(self.state_dir), table, SystemClock().wall(), defaults)
        sent[table] = defaults
        write_atomic(self.path, json.dumps({t: d.plain() for t, d in sorted(sent.items())},
                                           ensure_ascii=False, sort_keys=True, indent=1))
        return {"table": table, **defaults.plain(), **shared(lambda: self._send(message))}

    def _send(self, message: tuple[str, bytes]) -> str:
        if self.settings is None:
            raise ValueError("this dashboard has no broker to send it with")
        send_retained(self.settings, [message], timeout=SHARE_S)
        return message[0]

    def view(self) -> dict:
        """What the page's form offers: each enrolled table's defaults, every game's house
        rules as its rules declare them, the languages."""
        sent = self.sent()
        return {"tables": [{"name": table, **sent.get(table, HouseDefaults()).plain()}
                           for table in sorted(Enrolled(self.state_dir).tables())],
                "games": [{"id": spec.id, "title": spec.title, "options": [
                    {"key": o.key, "kind": o.kind, "default": o.default, "choices": list(o.choices),
                     "minimum": o.minimum, "maximum": o.maximum,
                     # named as the table's menus name them, where the keys are the scripts'
                     "label": render(option_name(o.key)),
                     "choice_labels": [render(value_name(choice)) for choice in o.choices]}
                    for o in spec.options]}
                          for spec in sorted(self.specs.values(), key=lambda spec: (spec.order, spec.id))],
                "languages": list(LANGUAGES)}
