"""The table's part in giving a player a card by a tap: the café's request shown at idle, the
next unknown tap sent back signed (claim.py says what travels; claim_screen.py what shows).

It goes before the fleet plugin, so that while the table waits for a card, a tap is the
wait's: a staff card opens no admin menu and enrols nothing then.
"""
from __future__ import annotations

from pathlib import Path

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Show, Switch
from device.decks.registry import StaffRef
from device.inputs import Tapped
from device.players.roster import Roster
from device.plugin import Plugin
from device.ui.game_select import GameSelect
from engine.core.text import msg

from .claim import ClaimBox, answer_message
from .claim_screen import ClaimWait, refusal
from .envelope import Signer
from .signing import StaffRoll, staff_hash


class CardClaim(Plugin):
    order = 9

    def __init__(self, box: ClaimBox, link, signer: Signer, state_dir: Path,
                 key: str | None) -> None:
        self.box, self.link, self.signer, self.key = box, link, signer, key
        self.state_dir = Path(state_dir)

    def tick(self, app) -> Actions:
        now, mode = app.clock.monotonic(), app.mode
        if isinstance(mode, ClaimWait) and mode.expired(now):
            return [Switch(mode.back_to), Show.of(msg("fleet.claim_expired",
                                                      name=mode.request.player))]
        if not (isinstance(mode, ClaimWait) or at_rest(app)):
            return NOTHING                   # a game is not interrupted: it waits its turn
        taken = self.box.take()
        if taken is None:
            return NOTHING
        request, left = taken
        back_to = mode.back_to if isinstance(mode, ClaimWait) else mode
        return [Switch(ClaimWait(request, now + left, back_to))]

    def deadline(self, app) -> float | None:
        return app.mode.until if isinstance(app.mode, ClaimWait) else None

    def on_input(self, app, event) -> Actions | None:
        mode = app.mode
        if not (isinstance(mode, ClaimWait) and isinstance(event, Tapped)):
            return None
        why = refusal(known=event.ref is not None or Roster(self.state_dir).holder(event.uid)
                      is not None, staff=self._staff(event))
        if why is not None:
            return [Show.of(why)]
        self.link.publish(*answer_message(self.signer, mode.request, event.uid))
        return [Switch(mode.back_to), Show.of(msg("fleet.claim_sent", name=mode.request.player),
                                              seconds=4)]

    def _staff(self, event: Tapped) -> bool:
        """A staff card here, or one the café shared that waits for its first tap here."""
        return isinstance(event.ref, StaffRef) or bool(
            self.key and staff_hash(self.key, event.uid) in StaffRoll(self.state_dir).pending())


def at_rest(app) -> bool:
    """At game select with nothing on screen over it: a request interrupts no one."""
    return app.session is None and app.overlay is None and type(app.mode) is GameSelect
