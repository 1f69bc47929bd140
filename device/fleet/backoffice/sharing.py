"""The back office's changes sent to every table: the same signed, retained shared messages as
`tabletop players publish`, `tabletop deck staff publish` and `tabletop deck publish NAME`,
made by the same functions, signed with the café's admin key in the dashboard's state dir and
sent with the config's broker account.

A change is kept on the café machine first; sharing it comes after, and when the broker or the
admin key is missing the answer says so in one line (the change stays, and is sent with the
next one or by the command).
"""
from __future__ import annotations

from pathlib import Path

from device.clock import SystemClock
from device.decks.registry import DeckRegistry
from device.fleet.envelope import Signer
from device.fleet.link import FleetUnavailable
from device.fleet.plugin import table_name
from device.fleet.retained import send_retained
from device.fleet.shared import deck_message, roster_message, staff_message
from device.players.roster import Roster, RosterError

SHARE_S = 5.0                   # the longest a share waits for the broker's acknowledgement


class Sharing:
    def __init__(self, settings, state_dir: Path) -> None:
        self.settings, self.state_dir = settings, Path(state_dir)

    def _send(self, make) -> str:
        """The message `make(table, now, signer)` makes, sent retained: its topic."""
        signer = Signer.admin(self.state_dir)
        message = make(table_name(self.settings), SystemClock().wall(), signer)
        send_retained(self.settings, [message], timeout=SHARE_S)
        return message[0]

    def roster(self) -> str:
        roster = Roster(self.state_dir)
        if not roster.players():
            raise RosterError("no players here to share")
        return self._send(lambda table, now, signer: roster_message(roster, table, now, signer))

    def staff(self) -> str:
        registry = DeckRegistry(self.state_dir)
        return self._send(lambda table, now, signer: staff_message(registry, table, now,
                                                                   self.settings.key, signer))

    def deck(self, name: str) -> str:
        registry = DeckRegistry(self.state_dir)
        return self._send(lambda table, now, signer: deck_message(registry, name, table, now, signer))


def shared(send) -> dict:
    """What a share said: {"shared": topic}, or {"not_shared": why} in one line."""
    try:
        return {"shared": send()}
    except (FleetUnavailable, ValueError, OSError) as exc:
        return {"not_shared": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
