"""A prompt that closes by itself shows its seconds left, then closes as SELECT would."""
from __future__ import annotations

from device.ui.prompt_timer import PromptTimer

from .table import Table
from .test_sim_tamalou import UNTIL_LAST_SNAPS


def last_snaps(tmp_path, language: str = "en") -> Table:
    table = Table(tmp_path, language)
    table.app.attach(PromptTimer())
    return table.start("tamalou", "P1,P2,P3", "P2").run(UNTIL_LAST_SNAPS)


def test_the_last_snaps_count_down_in_the_header(tmp_path):
    table = last_snaps(tmp_path)
    seen = []
    for _ in range(3):
        table.run("wait 2")
        seen.append((table.screen.header_right, table.screen.lines[0]))
    assert seen == [("3 s left", "Last snaps? Tap,"), ("1 s left", "Last snaps? Tap,"),
                    ("R1", "Snaps are over")]        # under the snaps' own header: they closed


def test_the_countdown_speaks_french(tmp_path):
    table = last_snaps(tmp_path, "fr")
    table.run("wait 2")
    assert table.screen.header_right == "encore 3 s"


def test_each_second_is_a_deadline_so_the_header_follows(tmp_path):
    table = last_snaps(tmp_path)
    table.run("wait 2")
    now = table.clock()
    assert table.app.next_deadline() - now == 1.0
