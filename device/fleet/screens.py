"""The one fleet screen on the table: a shared deck or staff list offered at idle.

"New deck cafe2 from table-3: tap a staff card to import". Only a staff card's tap
imports it; BACK declines, and the offer does not come back until the café shares
something new. A long offer (a staff list of many names) pages as every text of the table
does (device/ui/paging.py): its pages turn by themselves and on DOWN, UP goes back to the
first, so every name is read before the tap.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Show, Switch
from device.decks.deck_file import DeckError
from device.decks.registry import StaffRef
from device.inputs import Tapped
from device.ui.app_view import AppView
from device.ui.modes import Mode
from device.ui.screen import BODY_LINES, Screen
from engine.core.text import Msg, msg

from .shared import SharedDeck, import_deck, import_staff, new_staff

SHOWN = BODY_LINES - 1              # the offer's lines on a page; the last says BACK


class ImportOffer(Mode):
    def __init__(self, shared, inbox, registry, back_to: Mode) -> None:
        self.shared, self.inbox, self.registry, self.back_to = shared, inbox, registry, back_to

    def screen(self, app: AppView) -> Screen:
        """What comes in, named and counted, before a staff tap confirms it."""
        if isinstance(self.shared, SharedDeck):
            text = app.t("fleet.offer_deck", deck=self.shared.name, table=self.shared.table,
                         n=self.shared.cards)
        else:
            new = new_staff(self.registry, self.shared, self.inbox.key)
            text = app.t("fleet.offer_staff", n=len(new), table=self.shared.table,
                         names=", ".join(sorted(new.values())))
        lines, more = self.paged(app, text, SHOWN)
        return Screen(app.t("fleet.header"), "", (*lines, app.t("fleet.not_now")), footer=1,
                      more=len(lines) - 1 if more else None, above=self.later_page(app))

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "back":
            self.inbox.dismiss(self.shared)
            return [Switch(self.back_to)]
        self.page_button(app, name)
        return NOTHING

    def tap(self, app: AppView, tapped: Tapped) -> Actions:
        if not isinstance(tapped.ref, StaffRef):
            return [Show.of(msg("fleet.staff_needed"))]
        self.inbox.dismiss(self.shared)       # done or failed, it is not offered again
        return [Switch(self.back_to), Show.of(self._import(), seconds=4)]

    def _import(self) -> Msg:
        try:
            if isinstance(self.shared, SharedDeck):
                info = import_deck(self.registry, self.shared)
                return msg("fleet.deck_imported", deck=info.name)
            added = import_staff(self.registry, self.shared, self.inbox.key)
            return msg("fleet.staff_imported", n=added)
        except DeckError as exc:
            return msg("fleet.import_failed", why=str(exc))
