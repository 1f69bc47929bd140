"""One long `wait` lives the same seconds as many short ones: the simulator wakes at each
deadline, as the appliance's loop does, so every timer fires at its due time within one wait
(a countdown that a message's end arms included). Each case plays a game's timers both ways
and compares every frame, with the virtual time it was drawn at, and where the game ends."""
from __future__ import annotations

import pytest

from device.config import KioskConfig
from device.kiosk.plugin import Kiosk
from device.kiosk.screen_care import ScreenCare
from device.ui.prompt_timer import PromptTimer

from .table import SimTable
from .test_game_over import AUBERGE_3
from .test_sim_tamalou import UNTIL_LAST_SNAPS

STEP_S = 0.5                 # the short waits
ISSUE_TAMALOU = "tap 4D\nchoose tamalou\nchoose draw\nchoose play\ntap 5D"


def last_snaps(table: SimTable) -> SimTable:
    table.app.attach(PromptTimer())
    return table.start("tamalou", "P1,P2,P3", "P2").run(UNTIL_LAST_SNAPS.removesuffix("wait 4\n"))


def messages(table: SimTable) -> SimTable:
    """Tamalou's call: messages over the play, each for its seconds."""
    return table.start("tamalou", "Ann,Bob,Cy").run("tap 4D\nchoose tamalou")


def idle(table: SimTable) -> SimTable:
    table.app.attach(ScreenCare(KioskConfig(dim_after_s=60, screensaver_after_s=120)))
    return table.start("palourde", "Ann,Bob,Cy").run("tap clam#1")


def kiosk_mid_game(table: SimTable) -> SimTable:
    table.app.attach(Kiosk(KioskConfig(enabled=True, attract_after_s=30), None))
    return table.start("palourde", "Ann,Bob,Cy").run("tap clam#1")


def kiosk_after_the_result(table: SimTable) -> SimTable:
    table.app.attach(Kiosk(KioskConfig(enabled=True, attract_after_s=30), None),
                     ScreenCare(KioskConfig(dim_after_s=20, screensaver_after_s=40)))
    return table.start("auberge").run(AUBERGE_3)


CASES = {"last snaps": (last_snaps, 20), "messages": (messages, 12), "idle": (idle, 250),
         "kiosk, mid-game": (kiosk_mid_game, 45), "kiosk, after the result": (kiosk_after_the_result, 100)}


def lived(tmp_path, case: str, waits: list[float]) -> dict:
    table = SimTable(tmp_path)
    table.clock.set_wall("2024-05-04T12:40:00+02:00")
    start, seconds = CASES[case]
    start(table)
    drawn: list = []
    table.frames.on_frame = lambda image, screen: drawn.append((round(table.clock(), 6), screen))
    for wait in waits:
        table.run(f"wait {wait}")
    app = table.app
    return {"frames": drawn, "time": round(table.clock(), 6), "mode": type(app.mode).__name__,
            "state": table.state() if app.session else None, "level": app.display_level,
            "screen": table.screen}


@pytest.mark.parametrize("case", CASES)
def test_one_long_wait_lives_the_same_seconds_as_short_ones(tmp_path, case):
    seconds = CASES[case][1]
    long = lived(tmp_path / "long", case, [seconds])
    short = lived(tmp_path / "short", case, [STEP_S] * int(seconds / STEP_S))
    assert long["frames"]                         # timers fired within the one wait
    assert long == short


def test_a_long_wait_closes_the_last_snaps_a_message_was_over(tmp_path):
    """The countdown arms as the message over the last discard goes, within the wait; the last
    snaps close, and the next tap is the last player's snap on the closed discard."""
    closed = {}
    for name, waits in (("long", "wait 100"), ("short", "wait 3\nwait 6")):
        table = SimTable(tmp_path / name)
        table.app.attach(PromptTimer())
        table.start("tamalou", "Ann,Bob,Cy").run(ISSUE_TAMALOU)
        table.run(waits)
        prompt = table.app.session.spec.prompt(table.app.session.state)
        closed[name] = (prompt.id, table.app.session.state.current)
    assert closed["long"] == closed["short"] == ("turn", "Cy")


def test_a_replayed_long_wait_closes_them_too():
    from device.cli.replay import replay_text, report
    script = "game tamalou\nplayers Ann Bob Cy\n" + ISSUE_TAMALOU + "\n{}\ntap AS\n"
    long = report(replay_text(script.format("wait 100")))
    assert long == report(replay_text(script.format("wait 3\nwait 6")))
    assert long["details"]["current"] == "Cy" and long["details"]["final_queue"] == ["Cy"]
