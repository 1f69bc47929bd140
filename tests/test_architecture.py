"""The dependency rules of DESIGN.md §1 and the purity of the engine (§3)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("path", files("engine"), ids=lambda p: str(p.relative_to(ROOT)))
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
