"""`tabletop bench` runs and reports every figure. No timing is asserted."""
from __future__ import annotations

import json

from device.cli import bench, main

# The smallest run that still takes every path: one game, one start-up, a short journal.
TINY = bench.Plan(seeds=(1,), games=("palourde",), idle_s=0.05, start_runs=1, resume_events=20,
                  resume_repeat=1)

FIGURES = {"tap_to_frame_ms": ("p50", "p99"), "journal_fsync_ms": ("p50", "p99"),
           "display_bytes_per_update": ("ours", "full_frame"),
           "idle_cpu_percent": ("ours", "mfrc522"), "startup_to_first_frame_s": None,
           "peak_rss_mb": None, "resume_1000_events_ms": None}


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def test_the_bench_reports_every_figure(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(bench, "QUICK", TINY)
    assert main(["bench", "--quick", "--json", "--dir", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    for key, parts in FIGURES.items():
        values = [report[key]] if parts is None else [report[key][part] for part in parts]
        for value in values:
            # the mfrc522 package is optional: without it its figure is null, with a note
            assert is_number(value) or (value is None and key == "idle_cpu_percent"
                                        and report["notes"]), (key, value)
    for speed in ("100k", "400k"):
        assert all(is_number(v) for v in report["i2c_ms_per_update"][speed].values())
    assert report["display_bytes_per_update"]["full_frame"] == 6 + 1024   # luma: address + frame
    assert set(report["goals_met"]) == {name for name, _, _ in bench.GOALS}
    assert list(tmp_path.iterdir()) == []          # the scratch folder is cleaned up

    text = bench.table(report, "tabletop bench --quick")
    for label in ("tap to frame", "display bytes", "idle CPU", "start-up", "peak RSS", "resume"):
        assert label in text


def test_display_updates_send_at_most_a_quarter_of_a_full_frame(tmp_path):
    """Bytes are counted, not timed: the page-aligned layout and spans keep updates small."""
    import statistics

    from device.bench.display import full_frame
    from device.bench.games import play_games
    games = play_games(tmp_path, (1,), None)
    assert statistics.fmean(map(sum, games.updates)) <= 0.25 * sum(full_frame())
