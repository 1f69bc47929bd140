"""A game made outside this repository, as a café developer would make one: a folder with its
own pyproject.toml (tests/fixtures/highcard), installed beside the companion with its
`tabletop.games` entry point. It is found, replayed, played from the game menu in the
simulator and passes `tabletop check-game`, with no file of the repository changed.
"""
from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.registry import all_specs
from tests.device.simpty import PtySim

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "highcard"
PLAY = ["tap gem3", "tap gem9",              # round 1: P2's 9 takes it; P2 leads round 2
        "tap gem12", "tap gem1",             # P2's 12 takes it
        "tap gem5", "tap gem7"]              # P1's 7 takes the last: P2 has 4 Gems, P1 2


def repository_changes() -> str:
    """What `git status` says of the checkout: tracked files changed and untracked files."""
    if not (ROOT / ".git").exists():
        return ""
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=60).stdout


def install(source: Path, where: Path) -> Path:
    """pip installs the game's folder (a copy: a build leaves files in its folder) into its
    own site folder, with its entry point, and nothing else."""
    shutil.copytree(source, where / "src")
    site = where / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--no-build-isolation", "--target", str(site), str(where / "src")],
                   check=True, capture_output=True, timeout=300)
    return site


def changed_copy(site: Path, where: Path, path: str, old: str, new: str) -> Path:
    """The installed game with one of its files changed: a copy of its site, without the
    compiled files (cheaper than a second pip install, and the same files)."""
    copy = where / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("__pycache__"))
    changed = copy / path
    assert old in changed.read_text()
    changed.write_text(changed.read_text().replace(old, new))
    return copy


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    before = repository_changes()
    site = install(FIXTURE, tmp_path_factory.mktemp("highcard"))
    yield site
    assert repository_changes() == before


def tabletop(site: Path | None, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "device.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_game_is_unknown_until_it_is_installed():
    done = tabletop(None, "replay", str(FIXTURE / "tabletop_highcard" / "demo.script"))
    assert done.returncode == 2 and "unknown game 'highcard'" in done.stderr


def test_replay_plays_its_demo_to_the_end(site):
    done = tabletop(site, "replay", str(site / "tabletop_highcard" / "demo.script"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["game"], report["over"], report["winners"], report["rejected"]) == \
        ("highcard", True, ["Bob"], [])
    assert [(p["name"], p["score"]) for p in report["players"]] == [("Ann", 2), ("Bob", 4)]


def test_the_simulator_offers_it_on_the_game_menu_and_plays_it(site, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    highcard = importlib.import_module("tabletop_highcard.highcard").GAME
    menu = sorted([(spec.order, spec.id) for spec in all_specs()] + [(highcard.order, "highcard")])
    monkeypatch.setenv("PYTHONPATH", str(site))
    sim = PtySim(tmp_path)
    try:
        sim.first_frame().type("press down\n" * menu.index((highcard.order, "highcard")))
        assert sim.type("press select").text_view()[:3] == [
            "|HIGH CARD            |", "  House rules", "> Start game"]
        assert sim.type("press select").text_view()[1:3] == ["  How many players?", "> 2 players"]
        assert sim.type("press select").text_view()[1:4] == ["  Round 1", "  P1: tap a Gem",
                                                             "  P1 0  P2 0"]
        assert sim.type("\n".join(PLAY)).text_view()[1] == "  P1 takes 2 Gems"
        assert sim.type("wait 5").text_view() == [
            "|GAME OVER   HIGH CARD|", "  P2 wins", "  with 4 Gems", "  1 P2 4 v", "  SELECT=new game"]
    finally:
        sim.close()
    status = json.loads(tabletop(site, "status", "--state-dir", str(tmp_path), "--json").stdout)
    assert (status["game"], status["over"], status["winners"]) == ("highcard", True, ["P2"])


def test_check_game_passes_it(site):
    done = tabletop(site, "check-game", "highcard", "--playouts", "2")
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert lines[-1] == f"highcard: all {len(lines) - 1} checks passed"
    assert {line.split()[1] for line in lines[:-1]} == {"metadata", "deck", "texts", "screen", "playout",
                                                         "demo"}


def test_check_game_fails_a_demo_that_is_refused(site, tmp_path):
    broken = changed_copy(site, tmp_path, "tabletop_highcard/demo.script", "tap gem9", "tap gem3")
    done = tabletop(broken, "check-game", "highcard", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert not report["ok"]
    assert [c["problem"] for c in report["checks"] if not c["ok"]] == [
        "demo.script line 5 refused: E_OUT_OF_PLAY 'That Gem is out'"]


def test_a_plugin_without_its_french_texts_is_refused_and_says_why(site, tmp_path):
    site = changed_copy(site, tmp_path, "tabletop_highcard/texts_fr.py", '    "hc.over": "Partie finie",\n', "")
    why = "game plug-in highcard refused: game highcard: fr texts lack 1 that en has: hc.over"
    done = tabletop(site, "check-game", "highcard")
    assert done.returncode == 2
    unknown, refused = done.stderr.splitlines()
    assert unknown.startswith("tabletop: unknown game 'highcard'") and refused == f"tabletop: {why}"
    table = tabletop(site, "run", "--sim", "--state-dir", str(tmp_path / "state"))
    assert table.returncode == 0            # the table starts with the games it has
    assert f"WARNING tabletop: {why}" in table.stderr.splitlines()
