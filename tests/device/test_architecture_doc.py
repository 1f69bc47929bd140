"""docs/architecture.md names every plugin and every reader backend the code has."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def plugin_classes() -> list[str]:
    """Every class in device/ built on Plugin."""
    found = []
    for path in sorted((ROOT / "device").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, ast.Name) and base.id == "Plugin" for base in node.bases):
                found.append(node.name)
    return found


def reader_modules() -> list[str]:
    """The hardware modules `device/parts.py` opens a configured reader from."""
    tree = ast.parse((ROOT / "device" / "parts.py").read_text(encoding="utf-8"))
    opener = next(node for node in ast.walk(tree)
                  if isinstance(node, ast.FunctionDef) and node.name == "open_reader_now")
    return sorted(node.module.replace(".", "/") + ".py" for node in ast.walk(opener)
                  if isinstance(node, ast.ImportFrom) and node.module
                  and node.module.startswith("hardware."))


def test_every_plugin_is_in_the_table():
    plugins = plugin_classes()
    assert len(plugins) >= 7
    assert [name for name in plugins if f"`{name}`" not in DOC] == []


def test_every_reader_backend_is_named():
    backends = reader_modules()
    assert "hardware/rc522.py" in backends
    assert [path for path in backends + ["hardware/sim.py"] if f"`{path}`" not in DOC] == []
