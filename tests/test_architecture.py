"""The dependency rules, and the purity of the engine: no I/O, clock, randomness or logging."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .import_graph import breaches, cycles, import_graph

ROOT = Path(__file__).resolve().parent.parent

ENGINE_FORBIDDEN = {"random", "time", "datetime", "os", "io", "pathlib", "socket", "logging",
                    "threading", "asyncio", "subprocess", "sqlite3", "tomllib", "shutil", "secrets",
                    "uuid", "hardware", "device", "seeds", "spidev", "gpiozero", "luma", "serial",
                    "RPi", "mfrc522", "PIL"}
HARDWARE_FORBIDDEN = {"engine", "device", "seeds"}


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module a file imports (relative imports excluded)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", files("engine") + files("tabletop_kit"), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_is_pure(path):
    bad = imported_modules(path) & ENGINE_FORBIDDEN
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", files("hardware"), ids=lambda p: str(p.relative_to(ROOT)))
def test_hardware_knows_no_game(path):
    bad = imported_modules(path) & HARDWARE_FORBIDDEN
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_checker_sees_forbidden_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os.path\nfrom time import monotonic\nfrom . import sibling\n")
    assert imported_modules(sample) == {"os", "time"}


# ---- the import graph: no cycle anywhere, and imports between rooms go one way ----------------

PACKAGES = ("engine", "hardware", "device", "tabletop_kit")
APP_CORE = ("device.app", "device.plugin", "device.inputs", "device.loop")
LAYERS = [
    (("engine",), ("hardware", "device")),
    # the game kit hands games the engine's names; the engine's core is what it is made of
    (("tabletop_kit",), ("hardware", "device")),
    (("engine.core", "engine.text"), ("tabletop_kit",)),
    (("hardware",), ("engine", "device")),
    (("device.storage",), ("device.ui", "device.cli", "device.kiosk", "device.fleet")),
    (("device.loop",), ("device.sim",)),
    # fleet, kiosk (with screen care) and feedback plug in through device.plugin
    (APP_CORE, ("device.fleet", "device.kiosk", "device.feedback", "device.table")),
    (("device.ui",), ("device.cli", "device.fleet", "device.kiosk", "device.table")),
    # the table's page reads the table and hands its lines to the loop; the table knows it not
    (("device.web",), ("device.cli", "device.fleet", "device.kiosk", "device.table")),
    ((*APP_CORE, "device.ui", "device.storage", "device.sim"), ("device.web",)),
]


def test_no_module_takes_part_in_an_import_cycle():
    assert cycles(import_graph(ROOT, PACKAGES)) == []


def test_imports_between_rooms_go_one_way():
    assert breaches(import_graph(ROOT, PACKAGES), LAYERS) == []


def test_the_games_are_written_with_the_kit_alone():
    """A game of this repository imports the engine's names from tabletop_kit, as a game made
    elsewhere does: nothing of it reaches into engine.core or engine.text."""
    graph = import_graph(ROOT, PACKAGES)
    games = tuple(f"engine.games.{p.name}" for p in (ROOT / "engine" / "games").iterdir()
                  if (p / "__init__.py").exists())
    assert len(games) >= 5
    assert breaches(graph, [(games, ("engine.core", "engine.text", "device", "hardware"))]) == []


def test_at_most_twelve_modules_stay_at_the_top_of_device():
    top = sorted(p.name for p in (ROOT / "device").glob("*.py"))
    assert len(top) <= 12, top


def plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_cycle_hidden_inside_a_function_is_found(tmp_path):
    plant(tmp_path, {"device/__init__.py": "", "device/ui/__init__.py": "",
                     "device/app.py": "from device.ui import play\n",
                     "device/ui/play.py": "def later():\n    from .. import app\n",
                     "device/ui/menu.py": "from . import play\n"})
    assert cycles(import_graph(tmp_path, ("device",))) == [["device.app", "device.ui.play"]]


def test_a_breach_of_the_layers_is_found(tmp_path):
    plant(tmp_path, {"device/__init__.py": "", "device/storage/__init__.py": "",
                     "device/ui/__init__.py": "", "device/ui/screen.py": "",
                     "device/storage/journal.py":
                         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from device.ui.screen import Screen\n"})
    assert breaches(import_graph(tmp_path, ("device",)), LAYERS) == [
        "device.storage.journal -> device.ui.screen"]
