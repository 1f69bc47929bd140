"""What xdist's workers would each make for themselves, made once before they start.

In a fresh checkout nothing is compiled yet, and every worker collecting the suite compiles
the same modules at the same moment: the test modules with their asserts rewritten by pytest
(5 s of CPU for the suite's), the package's and the helpers' sources (0.6 s). Made once here,
the workers read it; the rewriting is spread over the machine's cores, as the workers would
be. A later run finds it made, and this reads the files' headers alone.
"""
from __future__ import annotations

import compileall
import fnmatch
import gc
import multiprocessing
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def make_for_the_workers(config: pytest.Config, *also: Callable[[], object]) -> None:
    """Each package's modules as Python compiles them, the test modules as pytest rewrites
    them (conftest.py, those python_files names), and `also`, anything else they would make."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    tests = []
    for package in sorted(ROOT.glob("*/__init__.py")):
        for source in sorted(package.parent.rglob("*.py")):
            if any(fnmatch.fnmatch(source.name, pattern) for pattern in patterns):
                tests.append(source)
            else:
                compileall.compile_file(source, quiet=2)   # what fails is told at collection
    rewrites = rewriters(tests, config) if config.getoption("assertmode") == "rewrite" else []
    in_parallel([*also, *rewrites])


def rewriters(tests: list[Path], config: pytest.Config) -> list[Callable[[], object]]:
    """For each module with no up-to-date rewritten bytecode, the job that rewrites and caches
    it with pytest's own functions. They are its internals: where a later pytest has others,
    each worker rewrites the modules for itself, as it always could."""
    try:
        from _pytest.assertion import rewrite as pytest_rewrite
        state = config.stash[pytest_rewrite.assertstate_key]
        cache_dir, makedirs, read, make, write = (
            pytest_rewrite.get_cache_dir, pytest_rewrite.try_makedirs, pytest_rewrite._read_pyc,
            pytest_rewrite._rewrite_test, pytest_rewrite._write_pyc)
        tail = pytest_rewrite.PYC_TAIL
    except (ImportError, AttributeError, KeyError):
        return []

    def rewrite(source: Path, pyc: Path) -> None:
        try:
            stamp, code = make(source, config)
        except SyntaxError:             # told at collection, by the worker that imports it
            return
        write(state, code, stamp, pyc)

    jobs = []      # the longest first, so that no core is left with one long job at the end
    for source in sorted(tests, key=lambda source: -source.stat().st_size):
        cache = cache_dir(source)
        pyc = cache / (source.name[:-3] + tail)
        if read(source, pyc) is None and makedirs(cache):
            jobs.append(partial(rewrite, source, pyc))
    return jobs


_JOBS: list[Callable[[], object]] = []     # the jobs, as the forked processes find them


def cores() -> int:
    """The cores this process may run on (a CI container's share, not the machine's)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def in_parallel(jobs: list[Callable[[], object]]) -> None:
    """Each job once, taken in the order given by whichever process (one a core) is free.
    The processes are forked from this one: they have the config and the imports already,
    and a job goes to them as its number. With one core, or at most one job, all run here."""
    global _JOBS
    if cores() < 2 or len(jobs) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for job in jobs:
            job()
        return
    _JOBS = jobs
    gc.freeze()       # the forked processes' collections leave this one's objects, and pages, alone
    try:
        with multiprocessing.get_context("fork").Pool(min(cores(), len(jobs))) as pool:
            for _ in pool.imap_unordered(_run, range(len(jobs))):
                pass
    finally:
        _JOBS = []


def _run(number: int) -> None:
    _JOBS[number]()
