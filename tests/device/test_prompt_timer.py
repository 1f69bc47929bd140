"""A prompt that closes by itself shows its seconds left, then closes as SELECT would."""
from __future__ import annotations

from device.ui.prompt_timer import PromptTimer

from .table import SimTable
from .test_sim_tamalou import UNTIL_LAST_SNAPS


def last_snaps(tmp_path, language: str = "en") -> SimTable:
    table = SimTable(tmp_path, language)
    table.app.attach(PromptTimer())
    return table.start("tamalou", "P1,P2,P3", "P2").run(UNTIL_LAST_SNAPS)


def test_the_last_snaps_count_down_in_the_header(tmp_path):
    # The countdown (5 s) started as the message over the last discard went (2 s), within the
    # script's last wait (4 s): 3 s are left as it ends.
    table = last_snaps(tmp_path)
    seen = [(table.screen.header_right, table.screen.lines[0])]
    for _ in range(2):
        table.run("wait 2")
        seen.append((table.screen.header_right, table.screen.lines[0]))
    assert seen[:2] == [("3 s left", "Last snaps? Tap,"), ("1 s left", "Last snaps? Tap,")]
    assert seen[2][1] == "Snaps are over" and "left" not in seen[2][0]     # they closed


def test_the_countdown_speaks_french(tmp_path):
    table = last_snaps(tmp_path, "fr")          # its messages take longer to read: 4 s
    assert table.screen.header_right == "encore 5 s"
    table.run("wait 2")
    assert table.screen.header_right == "encore 3 s"


def test_each_second_is_a_deadline_so_the_header_follows(tmp_path):
    table = last_snaps(tmp_path)
    table.run("wait 2")
    now = table.clock()
    assert table.app.next_deadline() - now == 1.0
