"""The page imports the parts of uvicorn and segno it uses, not their packages' `__init__`
(device/web/lean.py): what the table's peak memory is cut by."""
from __future__ import annotations

import json
import subprocess
import sys

from device.web.lean import bare


def package(root, name: str) -> None:
    """A package whose __init__ refuses to be run, with a part that uses a sibling."""
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("raise RuntimeError('the whole package was imported')\n")
    (root / name / "part.py").write_text(f"from {name}.sibling import VALUE\n")
    (root / name / "sibling.py").write_text("VALUE = 7\n")


def test_a_part_is_imported_without_its_package_and_the_bare_package_is_gone(tmp_path, monkeypatch):
    package(tmp_path, "heavy_pkg")
    monkeypatch.syspath_prepend(str(tmp_path))
    with bare("heavy_pkg"):
        from heavy_pkg.part import VALUE
    assert VALUE == 7
    assert "heavy_pkg" not in sys.modules           # a later plain import runs the __init__
    assert sys.modules["heavy_pkg.part"].VALUE == 7
    for name in ("heavy_pkg.part", "heavy_pkg.sibling"):
        monkeypatch.delitem(sys.modules, name)


def test_a_package_already_imported_is_itself(tmp_path, monkeypatch):
    (tmp_path / "whole_pkg").mkdir()
    (tmp_path / "whole_pkg" / "__init__.py").write_text("WHOLE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import whole_pkg
    with bare("whole_pkg") as found:
        assert found is whole_pkg
    assert sys.modules["whole_pkg"] is whole_pkg
    monkeypatch.delitem(sys.modules, "whole_pkg")


def test_not_a_package_is_refused():
    try:
        with bare("tabletop_no_such_package"):
            raise AssertionError("entered")
    except ModuleNotFoundError as exc:
        assert exc.name == "tabletop_no_such_package"


PROBE = """
import json, sys
from device.web import guard, server, card
modules = card.matrix("http://127.0.0.1:8080/#code=123456")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("click", "multiprocessing")
                or m in ("uvicorn.main", "uvicorn.supervisors", "segno.writers", "xml.sax"))
import uvicorn                          # the dashboard's plain import, after the page's parts
print(json.dumps({"loaded": loaded, "size": len(modules), "whole": hasattr(uvicorn, "run"),
                  "same": uvicorn.Config is sys.modules["uvicorn.config"].Config}))
"""


def test_the_page_leaves_uvicorns_command_line_and_segnos_writers_out():
    """In a fresh interpreter, as the table is: the page's modules and a QR code made; then a
    plain `import uvicorn` still gets the whole package, sharing the parts."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["loaded"] == []
    assert said["size"] == 29                     # version 3: 29 x 29 modules
    assert said["whole"] and said["same"]
