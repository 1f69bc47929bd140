"""The tree's bytecode, made once before xdist's workers start rather than by each of them.

In a fresh checkout nothing is compiled yet, and every worker collecting the suite compiles
the same modules at the same moment: the test modules with their asserts rewritten by pytest
(4 s of CPU for the suite's), the package's and the helpers' sources (1 s). Made once here,
the workers read it. A later run finds it made, and this reads the files' headers alone.
"""
from __future__ import annotations

import compileall
import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def compile_for_the_workers(config: pytest.Config) -> None:
    """Each package's modules as Python compiles them, the test modules as pytest rewrites
    them (conftest.py, those python_files names)."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    tests = []
    for package in sorted(ROOT.glob("*/__init__.py")):
        for source in sorted(package.parent.rglob("*.py")):
            if any(fnmatch.fnmatch(source.name, pattern) for pattern in patterns):
                tests.append(source)
            else:
                compileall.compile_file(source, quiet=2)   # what fails is told at collection
    if config.getoption("assertmode") == "rewrite":
        rewrite(tests, config)


def rewrite(tests: list[Path], config: pytest.Config) -> None:
    """The modules with no up-to-date rewritten bytecode, rewritten and cached by pytest's own
    functions. They are its internals: where a later pytest has others, each worker rewrites
    the modules for itself, as it always could."""
    try:
        from _pytest.assertion import rewrite as pytest_rewrite
        state = config.stash[pytest_rewrite.assertstate_key]
        cache_dir, makedirs, read, make, write = (
            pytest_rewrite.get_cache_dir, pytest_rewrite.try_makedirs, pytest_rewrite._read_pyc,
            pytest_rewrite._rewrite_test, pytest_rewrite._write_pyc)
        tail = pytest_rewrite.PYC_TAIL
    except (ImportError, AttributeError, KeyError):
        return
    for source in tests:
        cache = cache_dir(source)
        pyc = cache / (source.name[:-3] + tail)
        if read(source, pyc) is None and makedirs(cache):
            stamp, code = make(source, config)
            write(state, code, stamp, pyc)
