"""The dependency rules, and the purity of the engine: no I/O, clock, randomness or logging."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from .import_graph import breaches, cycles, import_graph, parsed, room_of, strays

ROOT = Path(__file__).resolve().parent.parent

ENGINE_FORBIDDEN = {"random", "time", "datetime", "os", "io", "pathlib", "socket", "logging",
                    "threading", "asyncio", "subprocess", "sqlite3", "tomllib", "shutil", "secrets",
                    "uuid", "hardware", "device", "seeds", "spidev", "gpiozero", "luma", "serial",
                    "RPi", "mfrc522", "PIL"}
HARDWARE_FORBIDDEN = {"engine", "device", "seeds"}


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module a file imports (relative imports excluded)."""
    names: set[str] = set()
    for node in ast.walk(parsed(path)):
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

PACKAGES = ("engine", "hardware", "device", "tabletop_kit", "seeds")
ANY = ("any room above",)
# Every room and the rooms it may import, from the bottom up: a room imports only rooms above it
# in this list, so no import ever points back down. docs/architecture.md's table says the same.
ROOMS: dict[str, tuple[str, ...]] = {
    "engine": (),
    "tabletop_kit": ("engine",),
    "engine.games": ("engine", "tabletop_kit"),
    "hardware": (),
    "seeds": ("engine",),
    "device": (),
    "device.paths": (),
    "device.clock": (),
    "device.service": (),
    "device.install": (),
    "device.ui.screen": (),
    "device.inputs": ("hardware",),
    "device.actions": ("engine", "device.ui.screen", "device.inputs"),
    "device.plugin": ("engine", "device.actions"),
    "device.config": ("engine", "hardware", "device.paths"),
    "device.texts": ("engine",),
    "device.storage": ("engine", "seeds", "device.paths", "device.clock", "device.plugin",
                       "device.config", "device.texts"),
    "device.players": ("engine", "hardware", "device.paths", "device.storage"),
    "device.decks": ("engine", "hardware", "seeds", "device.paths", "device.texts",
                     "device.storage", "device.players"),
    "device.feedback": ("engine", "hardware", "device.inputs", "device.actions", "device.plugin",
                        "device.config"),
    "device.ui": ("engine", "device.clock", "device.ui.screen", "device.inputs", "device.actions",
                  "device.plugin", "device.texts", "device.storage", "device.players",
                  "device.decks", "device.feedback"),
    "device.loop": ("device.inputs", "device.ui.screen", "device.ui"),
    "device.app": ("engine", "device.clock", "device.inputs", "device.actions", "device.plugin",
                   "device.texts", "device.storage", "device.ui.screen", "device.ui"),
    "device.kiosk": ("engine", "device.inputs", "device.actions", "device.plugin", "device.config",
                     "device.texts", "device.decks", "device.feedback", "device.ui.screen",
                     "device.ui"),
    "device.sim": ("engine", "hardware", "device.clock", "device.inputs", "device.actions",
                   "device.texts", "device.storage", "device.ui.screen", "device.ui", "device.loop"),
    "device.web": ("engine", "device.actions", "device.storage", "device.players",
                   "device.ui.screen", "device.ui", "device.loop", "device.sim"),
    "device.fleet": ("engine", "device.paths", "device.clock", "device.install", "device.inputs",
                     "device.actions", "device.plugin", "device.config", "device.texts",
                     "device.storage", "device.players", "device.decks", "device.ui.screen",
                     "device.ui", "device.kiosk", "device.web"),
    "device.parts": ("hardware", "device.service", "device.config", "device.inputs",
                     "device.ui.screen", "device.ui", "device.loop"),
    "device.assembly": ("engine", "device.paths", "device.clock", "device.texts", "device.storage",
                     "device.decks", "device.feedback", "device.ui", "device.app", "device.kiosk",
                     "device.sim", "device.fleet"),
    "device.conformance": ("engine", "seeds"),
    "device.bench": ANY,
    "device.cli": ANY,
}


@functools.cache
def _project_graph() -> dict[str, frozenset[str]]:
    return {module: frozenset(imports) for module, imports in import_graph(ROOT, PACKAGES).items()}


def project_graph() -> dict[str, set[str]]:
    """The project's import graph, read once a run for the tests below, each given its copy."""
    return {module: set(imports) for module, imports in _project_graph().items()}


def allowed() -> dict[str, tuple[str, ...]]:
    """ROOMS with "any room above" spelled out."""
    names = list(ROOMS)
    return {room: tuple(names[:names.index(room)]) if may == ANY else may
            for room, may in ROOMS.items()}


def test_every_package_folder_and_top_module_of_device_is_a_room():
    """A new folder under device/, a new module at its top or a new top-level package has no
    room until it is given one here, with what it may import, and a row in the docs."""
    found = set(PACKAGES)
    found |= {f"device.{p.stem}" for p in (ROOT / "device").glob("*.py") if p.stem != "__init__"}
    found |= {f"device.{p.name}" for p in (ROOT / "device").iterdir() if (p / "__init__.py").exists()}
    assert found - set(ROOMS) == set()
    assert all(room_of(module, ROOMS) for module in project_graph())


def test_a_room_imports_only_rooms_above_it():
    names = list(ROOMS)
    for room, may in allowed().items():
        assert set(may) <= set(names[:names.index(room)]), room


def test_no_module_takes_part_in_an_import_cycle():
    assert cycles(project_graph()) == []


def test_imports_between_rooms_go_one_way():
    assert strays(project_graph(), allowed()) == []


def dotted(path: str) -> str:
    """A room as the docs write it (`device/ui/`, `device/app.py`) as ROOMS names it."""
    return path.removesuffix("/").removesuffix(".py").replace("/", ".")


def docs_rooms() -> dict[str, tuple[str, ...]]:
    """The rooms of docs/architecture.md's table: its first column, and its last one."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line.split("|")[1:-1] for line in text.splitlines()
            if line.startswith("| `") and line.count("|") == 4]
    return {dotted(re.findall(r"`([^`]+)`", room)[0]):
            ANY if may.strip() == ANY[0] else tuple(dotted(name) for name in re.findall(r"`([^`]+)`", may))
            for room, _, may in rows}


def test_the_docs_table_lists_every_room_and_what_it_may_import_in_the_same_order():
    assert list(docs_rooms().items()) == list(ROOMS.items())


def test_the_games_are_written_with_the_kit_alone():
    """A game of this repository imports the engine's names from tabletop_kit, as a game made
    elsewhere does: nothing of it reaches into engine.core or engine.text."""
    graph = project_graph()
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


def test_an_import_against_the_rooms_is_found(tmp_path):
    plant(tmp_path, {"device/__init__.py": "", "device/storage/__init__.py": "",
                     "device/ui/__init__.py": "", "device/ui/screen.py": "",
                     "device/ui/modes.py": "from device.ui.screen import Screen\n",
                     "device/storage/journal.py":
                         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from device.ui.modes import Mode\n"})
    assert strays(import_graph(tmp_path, ("device",)), allowed()) == [
        "device.storage.journal -> device.ui.modes"]


def test_an_import_from_or_into_a_module_of_no_room_is_found(tmp_path):
    plant(tmp_path, {"device/__init__.py": "", "device/paths.py": "",
                     "device/newroom.py": "from device import paths\n"})
    assert strays(import_graph(tmp_path, ("device",)), {"device.paths": ()}) == [
        "device.newroom -> device.paths"]
