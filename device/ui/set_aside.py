"""Tells the table, once, of each file it could not read: moved to `unreadable/` in the state dir
(device/storage/quarantine.py), or the config file it started without.

    |TABLETOP            |
    |File set aside      |
    |in unreadable/:     |
    |staff.toml          |
    |(any button: OK)    |

The message stands over whatever the table shows until a button is pressed; that press
does nothing else, so nobody acts on a screen they did not see. Taps go on as usual. A
long file name makes it longer than the screen: its pages turn by themselves.

The notice lives as long as the table: from its start to its close, the table's unreadable
files are moved aside (quarantine.watch), so there is news to tell.
"""
from __future__ import annotations

from pathlib import Path

from device.actions import NOTHING, Actions
from device.inputs import ButtonHeld, ButtonPressed
from device.plugin import Plugin
from device.storage import quarantine
from engine.core.text import Msg, msg

from .paging import Pager
from .screen import BODY_LINES, Screen


class SetAsideNotice(Plugin):
    # right after screen care: a press on a sleeping panel only wakes it, and the notice
    # stands over the kiosk's screens, so the press that clears it is its own
    order = 30

    def __init__(self, state_dir: Path, config_unread: bool = False) -> None:
        """`config_unread`: the config file was not used as it stands (told once, first)."""
        self.state_dir = state_dir
        self.waiting: list[Msg] = [msg("ui.config_unreadable")] if config_unread else []
        self.pager = Pager()           # a long file name: the notice turns its pages
        quarantine.watch(state_dir)

    def _waiting(self) -> list[Msg]:
        self.waiting += [msg("ui.set_aside", file=Path(name).name)
                         for name in quarantine.news(self.state_dir)]
        return self.waiting

    def on_input(self, app, event) -> Actions | None:
        if isinstance(event, (ButtonPressed, ButtonHeld)) and self._waiting():
            self.waiting.pop(0)
            return NOTHING
        return None

    def deadline(self, app) -> float | None:
        return self.pager.deadline(app.clock.monotonic()) if self.waiting else None

    def close(self) -> None:
        quarantine.unwatch(self.state_dir)     # the table stops: its files are left as they are

    def screen(self, app, screen: Screen) -> Screen:
        if not self._waiting() or screen.blank or screen.drift is not None:
            return screen                # a sleeping panel: the press that wakes it comes first
        lines, more = self.pager.page(app.t(self.waiting[0]), BODY_LINES, app.clock.monotonic())
        return Screen(screen.header, screen.header_right, tuple(lines),
                      more=len(lines) - 1 if more else None)
