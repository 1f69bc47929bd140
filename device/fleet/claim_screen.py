"""The table waiting for a player's new card: "Tap the card for Ann", BACK cancels.

Shown at idle when the café asks for it (claim.py). Only a tag no one here knows answers: a
card of a deck, someone's player card or a staff card (enrolled or waiting for its first tap
here) is refused with one line and the wait goes on. The text pages as every text of the
table does, so a long name is read whole. The wait ends by itself when the request's time is
up on the table's clock.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (registers the texts shown below)
from device.actions import NOTHING, Actions, Switch
from device.ui.app_view import AppView
from device.ui.modes import Mode
from device.ui.screen import BODY_LINES, Screen
from engine.core.text import Msg, msg

from .claim import Request

SHOWN = BODY_LINES - 1              # the request's lines on a page; the last says BACK


class ClaimWait(Mode):
    def __init__(self, request: Request, until: float, back_to: Mode) -> None:
        self.request, self.until, self.back_to = request, until, back_to

    def screen(self, app: AppView) -> Screen:
        lines, more = self.paged(app, app.t("fleet.claim_tap", name=self.request.player), SHOWN)
        return Screen(app.t("fleet.claim_header"), "", (*lines, app.t("fleet.claim_cancel")),
                      footer=1, more=len(lines) - 1 if more else None, above=self.later_page(app))

    def deadline(self, app: AppView) -> float | None:
        page = super().deadline(app)
        return self.until if page is None else min(page, self.until)

    def expired(self, now: float) -> bool:
        return now >= self.until

    def button(self, app: AppView, name: str, held: bool) -> Actions:
        if name == "back":
            return [Switch(self.back_to)]
        self.page_button(app, name)
        return NOTHING


def refusal(known: bool, staff: bool) -> Msg | None:
    """Why a tag is no new player card (the wait goes on), or None: it is one."""
    if staff:
        return msg("fleet.claim_staff")
    return msg("fleet.claim_known") if known else None
