"""A non-editable install carries each game's package files and entry point, and neither it
nor the editable one `make run` makes builds with a warning: build the wheel, install it in a
fresh venv, load."""
from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

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


def test_wheel_installs_and_loads_every_manifest(installed):
    # the wheel alone on the path of a bare venv: no repository, no dependencies
    out = subprocess.run([str(installed.here / "venv" / "bin" / "python"), "-c", LOAD_ALL],
                         cwd=installed.here, capture_output=True, text=True,
                         env={"PYTHONPATH": str(installed.site)})
    assert out.returncode == 0, out.stderr
    ours = [spec.id for spec in engine.all_specs() if spec.home.startswith("engine.")]
    assert out.stdout.strip() == str(sorted(ours))


SDIST_FOLLOWS = "-- the sdist's build --"
BUILDS = f"""
import sys
from setuptools import build_meta
dists, editable = sys.argv[1:]                # read first: each build rewrites sys.argv
build_meta.build_wheel(dists)
build_meta.build_editable(editable)           # what `make run` and `pip install -e .` build
print({SDIST_FOLLOWS!r}, file=sys.stderr, flush=True)
build_meta.build_sdist(dists)
"""
WARNED = re.compile(r"\.py:\d+: \w+: ")       # how Python prints a warning: file:line: Class: text


class Dists(NamedTuple):
    wheel: Path
    sdist: Path
    said: str                 # what the wheel's and the editable install's builds printed


def test_the_wheel_and_the_editable_install_build_without_a_warning(dists):
    assert not WARNED.findall(dists.said), dists.said


# ---- what a user gets: the wheel installed outside the repository, and the sdist ---------------

@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> Dists:
    """The wheel and the sdist, built from a copy of the tree (the builds leave folders), and
    the editable wheel `make run` builds, every warning shown: one process for the three, as
    setuptools' import and its look at every installed distribution's entry points cost a
    second process about 0.4 s of CPU (the sdist comes last, its own lines set apart)."""
    out = tmp_path_factory.mktemp("dists")
    tree = out / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis", ".cache", "build", "dist"))
    built = subprocess.run([sys.executable, "-W", "always", "-c", BUILDS, str(out), str(out / "editable")],
                           cwd=tree, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheels, follows, _ = built.stderr.partition(SDIST_FOLLOWS + "\n")
    assert follows, built.stderr
    (wheel,) = out.glob("tabletop_companion-*.whl")
    (sdist,) = out.glob("tabletop_companion-*.tar.gz")
    assert len(list((out / "editable").glob("tabletop_companion-*editable*.whl"))) == 1, built.stderr
    return Dists(wheel, sdist, wheels)


class Installed:
    """The wheel installed in a bare venv, run in a folder outside the repository; its
    dependencies are this interpreter's (no index is asked)."""

    def __init__(self, here: Path, wheel: Path) -> None:
        venv.EnvBuilder(with_pip=False).create(here / "venv")
        self.site, self.here = here / "site", here
        # --no-index: the wheel is a file here, and pip asks no index about its own version either
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--no-compile",
                        "--target", str(self.site), str(wheel)], check=True, capture_output=True)
        self.env = {"PYTHONPATH": f"{self.site}:{sysconfig.get_paths()['purelib']}",
                    "XDG_STATE_HOME": str(here / "state"), "PATH": os.environ["PATH"]}

    def python(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run([str(self.here / "venv" / "bin" / "python"), *argv], input=stdin,
                              capture_output=True, text=True, cwd=self.here, env=self.env, timeout=120)

    def tabletop(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess:
        return self.python("-m", "device.cli", *argv, stdin=stdin)


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> Installed:
    return Installed(tmp_path_factory.mktemp("installed"), dists.wheel)


def test_the_installed_command_is_the_wheel_s_and_points_at_what_it_carries(installed):
    assert installed.python("-c", "import device; print(device.__file__)").stdout.startswith(
        str(installed.site))
    helped = installed.tabletop("--help")
    assert helped.returncode == 0, helped.stderr
    said = " ".join(helped.stdout.split())
    assert "tabletop guide rules" in said and "tabletop guide cards" in said and "docs/" not in said
    rules = installed.tabletop("guide", "rules", "palourde")
    assert rules.returncode == 0 and "High Tide" in rules.stdout, rules.stderr
    assert "clam#20" in installed.tabletop("guide", "cards", "palourde").stdout


def test_the_installed_command_runs_doctor_replay_and_run(installed, tmp_path):
    doctor = installed.tabletop("doctor", "--sim", "--json", "--state-dir", str(tmp_path / "doctor"))
    assert doctor.returncode in (0, 1), doctor.stderr
    report = json.loads(doctor.stdout)
    assert report["checks"] and not any("docs/" in check["fix"] for check in report["checks"])
    demo = installed.site / "engine" / "games" / "palourde" / "demo.script"
    replay = installed.tabletop("replay", str(demo), "--json")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["over"] is True
    run = installed.tabletop("run", "--sim", "--state-dir", str(tmp_path / "table"), "--game",
                             "palourde", "--players", "Ann,Bob", stdin="tap basket#1\n")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr + replay.stderr + doctor.stderr


def test_the_installed_package_knows_its_version_and_hints_its_own_pip(installed):
    said = installed.python("-c", "from device.install.distribution import extra_hint, version; "
                            "print(version()); print(extra_hint('fleet'))").stdout.splitlines()
    assert said == [importlib.metadata.version("tabletop-companion"),
                    f"{installed.here / 'venv' / 'bin' / 'python'} -m pip install 'tabletop-companion[fleet]'"]


def test_the_wheel_carries_the_licence_and_says_what_it_is(dists):
    with zipfile.ZipFile(dists.wheel) as wheel:
        names = wheel.namelist()
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        said = wheel.read(metadata).decode()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "License-Expression: MIT" in said and "Classifier: Topic :: Games/Entertainment" in said


def test_the_sdist_carries_the_tree_and_its_tests_run_from_it(dists, tmp_path):
    with tarfile.open(dists.sdist) as sdist:
        # Bookworm's Python 3.11.2 predates extraction filters (3.11.4): the sdist is the one
        # built above, and no member may leave the folder.
        assert all(not Path(member.name).is_absolute() and ".." not in Path(member.name).parts
                   and not member.issym() and not member.islnk() for member in sdist.getmembers())
        sdist.extractall(tmp_path)
    (tree,) = tmp_path.iterdir()
    for part in ("LICENSE", "Makefile", "docs/rules.md", "docs/cards.md", "systemd/install.sh",
                 "tools/make_docs.py", "tests/conftest.py", "engine/games/palourde/deck.toml"):
        assert (tree / part).is_file(), part
    # hypothesis keeps its table of Unicode's characters (1.3 s of CPU to build) in its storage
    # folder: the checkout's, where the suite's own runs keep it, not a new one in the tree
    storage = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY", str(ROOT / ".hypothesis"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider",
                           "tests/test_docs.py", "tests/test_seeds.py"], cwd=tree,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tree), "HYPOTHESIS_STORAGE_DIRECTORY": storage})
    assert done.returncode == 0, done.stdout[-2000:]
