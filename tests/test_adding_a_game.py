"""docs/adding-a-game.md builds a whole game, No Thanks!, file by file: the game its code
blocks make is installed as a distribution of its own, as a reader would, and it replays its
demo, passes every check of `tabletop check-game`, prints its rules with its house rules'
table, and passes mypy's strict mode against the kit. The page names every field of GameSpec
and Look and every name the kit hands a game."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tabletop_kit
from engine.core.spec import GameSpec, Look

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"```(\w+) file=(\S+)\n(.*?)```", re.S)


def doc_files() -> dict[str, str]:
    """path -> text of each code block the page gives as a file."""
    return {path: body for _, path, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, Path]:
    """The game written from the page into a folder of its own, and pip-installed (with its
    entry point) into a site folder: (source, site)."""
    where = tmp_path_factory.mktemp("nothanks")
    source = where / "my-game"
    for path, text in doc_files().items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text, encoding="utf-8")
    site = where / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--no-build-isolation", "--target", str(site), str(source)],
                   check=True, capture_output=True, timeout=300)
    return source, site


def tabletop(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "device.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_page_gives_every_file_of_the_folder():
    assert set(doc_files()) == {
        "pyproject.toml", "tabletop_nothanks/__init__.py", "tabletop_nothanks/nothanks.py",
        "tabletop_nothanks/texts_en.py", "tabletop_nothanks/texts_fr.py",
        "tabletop_nothanks/deck.toml", "tabletop_nothanks/rules.md", "tabletop_nothanks/demo.script"}


def test_the_page_names_every_field_and_every_name_of_the_kit():
    text = DOC.read_text(encoding="utf-8")
    for field in dataclasses.fields(GameSpec) + dataclasses.fields(Look):
        assert f"`{field.name}" in text, field.name
    for name in tabletop_kit.__all__:
        assert re.search(rf"`{re.escape(name)}\b", text), name
    assert "line of the OLED holds 21 characters" not in text


def test_the_game_replays_its_demo_to_the_end(game):
    source, site = game
    done = tabletop(site, "replay", str(source / "tabletop_nothanks" / "demo.script"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["game"], report["over"], report["winners"], report["rejected"]) == \
        ("nothanks", True, ["Cy"], [])
    assert [(p["name"], p["score"]) for p in report["players"]] == [("Ann", 33), ("Bob", 16), ("Cy", 0)]


def test_the_game_passes_check_game(game):
    done = tabletop(game[1], "check-game", "nothanks", "--playouts", "1", "--json")
    report = json.loads(done.stdout)
    assert [c["problem"] for c in report["checks"] if not c["ok"]] == []
    assert done.returncode == 0 and {c["check"].split()[0] for c in report["checks"]} == {
        "metadata", "deck", "texts", "screen", "playout", "demo"}


def test_guide_prints_its_rules_as_the_companion_s_own(game):
    done = tabletop(game[1], "guide", "rules", "nothanks")
    assert done.returncode == 0, done.stderr
    assert "<!--" not in done.stdout
    assert "| `chips` | Chips each / Jetons chacun | `11` | 1 to 20 | how many chips each player " \
           "starts with |" in done.stdout.splitlines()


def test_mypy_strict_passes_the_game_and_holds_a_function_to_its_state(game, tmp_path):
    """The page's game is clean under mypy --strict against the kit; the same game handing
    its hint (a Msg) as its prompt (a Prompt) is caught at its GameSpec, by the state's type."""
    source, _ = game
    wrong = tmp_path / "tabletop_wrong"
    wrong.mkdir()
    for module in ("__init__.py", "nothanks.py", "texts_en.py", "texts_fr.py"):
        text = (source / "tabletop_nothanks" / module).read_text(encoding="utf-8")
        (wrong / module).write_text(text.replace("hint=hint, play=TABLE.play, prompt=prompt,",
                                                 "hint=hint, play=TABLE.play, prompt=hint,"))
    (tmp_path / "tabletop_nothanks").symlink_to(source / "tabletop_nothanks")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
                           "--config-file", os.devnull, "tabletop_nothanks", "tabletop_wrong"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout
    assert errors[0].startswith("tabletop_wrong/nothanks.py:") and '"prompt" to "GameSpec"' in errors[0]


def broken_copy(site: Path, where: Path, changes: dict[str, list[tuple[str, str]]]) -> Path:
    """The game with some lines changed, in a copy of its installed site (the same files as
    a pip install of the changed folder, without its cost; no compiled file left to go stale)."""
    copy = where / "src"
    for path, text in doc_files().items():
        for old, new in changes.get(path, []):
            assert old in text, old
            text = text.replace(old, new)
        (copy / path).parent.mkdir(parents=True, exist_ok=True)
        (copy / path).write_text(text, encoding="utf-8")
    broken = where / "site"
    shutil.copytree(site, broken, ignore=shutil.ignore_patterns("__pycache__"))
    for path in changes:
        assert (broken / path).is_file(), path          # a file the install carries
        shutil.copy(copy / path, broken / path)
    return broken


RULES = "tabletop_nothanks/nothanks.py"
BROKEN = {
    # "No thanks!" offered and taken at 0 chips: the invariant breaks where a player pays
    # their last chip and then once more, which random play rarely does
    RULES: [("    if of(state.chips, seat) == 0:\n        return Rejected(E_ILLEGAL, msg(\"nt.no_chips\"))\n", ""),
            ("        broke = of(state.chips, state.to_play) == 0\n", "        broke = False\n")],
    # a prompt of 130 characters on one line
    "tabletop_nothanks/texts_en.py": [('"{name}: flip the top\\ncard and tap it"', '"{name}: ' + "flip " * 24 + '"')],
}


def test_a_game_that_breaks_gets_fail_lines_naming_its_file_and_line(game, tmp_path):
    """A broken invariant names the game's `invariants`; a prompt of 125 characters on one line
    fails the screen check; check-game itself never stops with a traceback."""
    site = broken_copy(game[1], tmp_path, BROKEN)
    rules = (tmp_path / "src" / RULES).read_text(encoding="utf-8").splitlines()
    invariants = rules.index("def invariants(state: State) -> list[str]:") + 1
    done = tabletop(site, "check-game", "nothanks", "--playouts", "1", "--json")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    failed = {c["check"]: c for c in json.loads(done.stdout)["checks"] if not c["ok"]}
    assert failed["playout 3p high"]["where"] == f"{RULES}:{invariants}"
    assert "EngineBug" in failed["playout 3p high"]["problem"]
    assert "a player has fewer than no chips" in failed["playout 3p high"]["problem"]
    assert "playout 3p seed 0" not in failed            # random play did not go there
    assert failed["screen 3p"]["where"] is None
    assert failed["screen 3p"]["problem"].startswith(
        "phase flip (en): a line of 125 characters takes 7 rows, a page 4")
    text = tabletop(site, "check-game", "nothanks", "--playouts", "1")
    assert text.returncode == 1 and "Traceback" not in text.stderr
    lines = text.stdout.splitlines()
    assert f"FAIL  playout 3p high: {failed['playout 3p high']['problem']}" in lines
    assert lines[-1] == f"nothanks: {len(failed)} of {len(lines) - 1} checks failed"


def test_a_game_whose_player_limits_raise_fails_its_metadata_and_stops_nowhere(game, tmp_path):
    site = broken_copy(game[1], tmp_path, {RULES: [
        ("    result=result, invariants=invariants, max_events=2000, order=60,",
         "    result=result, invariants=invariants, max_events=2000, order=60,\n"
         "    player_limits=lambda options: (3, 5 // 0),")]})
    line = (tmp_path / "src" / RULES).read_text(encoding="utf-8").splitlines().index(
        "    player_limits=lambda options: (3, 5 // 0),") + 1
    done = tabletop(site, "check-game", "nothanks", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert report["checks"][0] == {"check": "metadata", "ok": False, "where": f"{RULES}:{line}",
                                   "problem": f"{RULES}:{line}: ZeroDivisionError: integer division or modulo by zero"}
