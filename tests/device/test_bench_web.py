"""`tabletop bench`'s page figures: the game's lines the three tables play, and how their taps
compare. No timing is asserted: the taps below are given, as the tables would report them."""
from __future__ import annotations

from device.cli import bench

LINES = ["press select", "tap a", "wait 2", "press down", "tap b", "wait 2", "tap c", "wait 2"]


def test_the_lines_end_at_the_tap_asked_for():
    assert bench.up_to_tap(LINES, 2) == LINES[:5]
    assert bench.up_to_tap(LINES, 1) == LINES[:2]
    assert bench.up_to_tap(LINES, 3) == LINES          # the last tap: its wait goes too
    assert bench.up_to_tap(LINES, 9) == LINES          # fewer taps than asked: every line
    assert bench.up_to_tap(LINES, None) == LINES


def run(taps_ms: list[float], journal_ms: list[float], peak: float = 40.0) -> dict:
    return {"peak_rss_mb": peak, "tap_s": [ms / 1000 for ms in taps_ms],
            "tap_journal_s": [ms / 1000 for ms in journal_ms]}


# 100 taps each: the p99 is the 99th; the journal's share is the disk's, the rest the loop's
OFF = run([2.0] * 98 + [9.0, 30.0], [1.0] * 98 + [5.0, 25.0], peak=35.0)
ON = run([2.0] * 98 + [9.5, 12.0], [1.0] * 98 + [5.0, 2.0], peak=41.0)
PHONES = run([2.5] * 98 + [12.0, 40.0], [1.0] * 98 + [5.0, 33.0], peak=42.0)


def test_a_table_with_the_page_is_told_against_the_table_without():
    page = {"off": OFF, "on": ON, "streams_50": PHONES}
    assert bench.page_run(OFF) == {
        "peak_rss_mb": 35.0, "taps": 100, "tap_to_frame_ms": {"p50": 2.0, "p99": 9.0},
        "tap_to_frame_without_journal_ms": {"p50": 1.0, "p99": 4.0}}
    cost = bench.page_cost(page)
    assert cost == {"on": {"tap_to_frame_ms": 0.5, "tap_to_frame_without_journal_ms": 0.5},
                    "streams_50": {"tap_to_frame_ms": 3.0,
                                   "tap_to_frame_without_journal_ms": 3.0}}
    assert bench.page_cost({"streams_50": PHONES}) == {}     # nothing to tell it against


def report(page: dict) -> dict:
    return {"page": {name: bench.page_run(figures) for name, figures in page.items()},
            "page_cost_ms": bench.page_cost(page)}


def check(name: str):
    return next(check for goal, _, check in bench.GOALS if goal == name)


def test_the_goals_are_the_busiest_tables():
    costly = report({"off": OFF, "on": ON, "streams_50": PHONES})
    assert check("page_rss")(costly) is True
    assert check("page_taps")(costly) is False           # 3 ms more than without the page
    cheap = report({"off": OFF, "on": ON, "streams_50": run(
        [2.0] * 98 + [9.0, 9.0], [1.0] * 98 + [4.5, 4.5])})
    assert check("page_taps")(cheap) is True              # 0.5 ms more
    assert check("page_taps")(report({"streams_50": PHONES})) is None   # not measured
    assert check("page_rss")(report({"off": OFF, "streams_50": run([1.0], [0.5], peak=45.1)})) is False


def test_the_table_says_each_tables_figures_and_the_difference():
    r = report({"off": OFF, "on": ON, "streams_50": PHONES})
    goal = {name: text for name, text, _ in bench.GOALS}
    met = {"page_rss": "yes", "page_taps": "NO"}
    rows = bench.page_rows(r, goal, met)
    assert rows[0] == ("page off: peak RSS, tap p50/p99 (100 taps)",
                       "35.0 MB, 2.00 / 9.00 ms (less the journal 1.00 / 4.00)", "", "")
    assert rows[2][2:] == (goal["page_rss"], "yes")
    assert rows[3] == ("  tap p99, page on less page off",
                       "+0.50 ms (less the journal +0.50)", "", "")
    assert rows[4] == ("  tap p99, page, 50 phones (+1 stalled) less page off",
                       "+3.00 ms (less the journal +3.00)", goal["page_taps"], "NO")
