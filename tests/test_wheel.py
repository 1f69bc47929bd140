"""A non-editable install carries each game's package files and entry point, and neither it
nor the editable one `make run` makes builds with a warning: build the wheel, install it in a
fresh venv, load."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parent.parent

LOAD_ALL = """
from importlib import resources
import engine, seeds
for spec in engine.all_specs():
    seeds.load(spec.deck)
    for name in ("rules.md", "demo.script"):
        resources.files(spec.home).joinpath(name).read_text(encoding="utf-8")
assert engine.problems() == (), engine.problems()
print(sorted(spec.id for spec in engine.all_specs()))
"""


def test_wheel_installs_and_loads_every_manifest(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("tabletop_companion-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    # install with this interpreter's pip into the empty venv: no network, no dependencies
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile",
                    "--target", str(tmp_path / "site"), str(wheel)], check=True, capture_output=True)
    out = subprocess.run([str(python), "-c", LOAD_ALL], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path / "site")})
    assert out.returncode == 0, out.stderr
    ours = [spec.id for spec in engine.all_specs() if spec.home.startswith("engine.")]
    assert out.stdout.strip() == str(sorted(ours))


BUILDS = """
import sys
from setuptools import build_meta
build_meta.build_wheel(sys.argv[1])
build_meta.build_editable(sys.argv[1])        # what `make run` and `pip install -e .` build
"""
WARNED = re.compile(r"\.py:\d+: \w+: ")       # how Python prints a warning: file:line: Class: text


def test_the_wheel_and_the_editable_install_build_without_a_warning(tmp_path):
    tree = tmp_path / "tree"                  # a copy: the builds leave their folders in it
    for part in ("engine", "hardware", "device", "seeds"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, tree / part)
    out = subprocess.run([sys.executable, "-W", "always", "-c", BUILDS, str(tmp_path)], cwd=tree,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert not WARNED.findall(out.stderr), out.stderr
