"""Shared test fixtures, the --update-goldens switch and hypothesis's profiles."""
import gc
import itertools
import logging
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import settings

from engine.core import text

from .bytecode import cores, make_for_the_workers

# The processes the tests start (a table, a command, the install script's) keep the package's
# bytecode beside its sources (__pycache__, ignored by git), as Python does unless told not
# to: a start that compiles the package again (PYTHONDONTWRITEBYTECODE) costs a third of a
# second of CPU, most of a short command's. The workers' own imports from here on keep theirs.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# A text a catalog lacks fails the test that renders it, rather than show its key on the screen.
text.strict()

# `make test` and CI: the same examples every run, nothing kept between runs, no deadline
# (a loaded 2-core machine is slow, not wrong). Explore with random seeds on purpose:
# HYPOTHESIS_PROFILE=explore make test
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
if settings().derandomize:
    # Hypothesis mixes into its examples the constants of every local module imported so far,
    # so a derandomized test drew other examples depending on which tests its xdist worker ran
    # first: the same run gave other examples on another day. Without them the examples are
    # the test's own.
    from hypothesis.internal.conjecture import providers
    if hasattr(providers, "_get_local_constants"):
        providers._get_local_constants = lambda: providers._local_constants


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden playthrough files instead of comparing them")


@pytest.fixture
def update_goldens(request):
    return request.config.getoption("--update-goldens")


_STATE_HOMES = itertools.count()


@pytest.fixture(autouse=True)
def own_surroundings(tmp_path_factory):
    """Each test's environment and log, one fixture for all of a test's own (every test sets
    it up: one fixture costs pytest a tenth of a millisecond a test, a monkeypatch another):

    - English: the command line speaks the system locale's language, and the tests expect
      English everywhere;
    - a state home of its own: a command given no --state-dir (the dashboard's, a status)
      keeps its files in a folder of the test's own, never in the user's state dir nor the
      service's (STATE_DIRECTORY); made only if the command makes it;
    - a log of its own: a command run in the test's own process (main(), here or in a module's
      fixture) sets the device's log up on the captured stderr of its time and may lower the
      level to debug: none of it is kept from one test to the next, so a server thread never
      writes to a stream already closed, and a test that counts log records counts its own.

    The environment is put back as it was after the test (after the test's own monkeypatch)."""
    home = tmp_path_factory.getbasetemp() / "state-homes" / str(next(_STATE_HOMES))
    own = {"LANG": "C.UTF-8", "XDG_STATE_HOME": str(home),
           "LC_ALL": None, "LC_MESSAGES": None, "STATE_DIRECTORY": None}
    saved = {name: os.environ.get(name) for name in own}
    set_environment(own)
    drop_command_logs()
    yield
    drop_command_logs()
    set_environment(saved)


def set_environment(values: dict[str, str | None]) -> None:
    """Each variable set, or removed where its value is None."""
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """The tests' folders on a tmpfs where the machine has one with room: a table's journal
    syncs every event to its disk, and on a disk each sync waits some milliseconds for the
    device, thousands of times a run, while on a tmpfs it returns at once. The same calls run
    either way; set before the temporary folders are made, so xdist's workers take it too."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    shm = Path("/dev/shm")
    try:
        room = os.statvfs(shm)
    except OSError:
        return
    if room.f_bavail * room.f_frsize >= 2 << 30 and os.access(shm, os.W_OK):
        config.option.basetemp = tempfile.mkdtemp(prefix="tabletop-tests-", dir=shm)
        config.add_cleanup(lambda: shutil.rmtree(config.option.basetemp, ignore_errors=True))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before xdist starts its workers (its own sessionstart comes last): what they would each
    make for themselves, made once: the bytecode (tests/bytecode.py), and hypothesis's tables
    of Unicode's characters, kept in .hypothesis/ (in a fresh clone each worker's first text
    strategy worked them out again: 2.7 s of CPU a worker)."""
    if session.config.pluginmanager.has_plugin("dsession"):
        make_for_the_workers(session.config, unicode_tables)


def unicode_tables() -> None:
    from hypothesis.errors import HypothesisSideeffectWarning
    from hypothesis.internal.charmap import charmap, intervals_from_codec
    with warnings.catch_warnings():     # made here on purpose, once, where no test waits on it
        warnings.simplefilter("ignore", HypothesisSideeffectWarning)
        charmap()
        intervals_from_codec("utf-8")


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Collecting imports every test module and makes thousands of items, and none of it is
    garbage: the cyclic collector is off meanwhile (it walked everything made so far dozens of
    times, a fifth of a worker's collection), then what is kept is frozen, so that the
    collections while the tests run walk the tests' own objects, not every module the worker
    imported (a tenth of the CPU of the bench's playouts)."""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


ROOT_LEVEL = logging.getLogger().level


def drop_command_logs() -> None:
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "tabletop", False)]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(ROOT_LEVEL)


def pytest_xdist_auto_num_workers(config):
    """One worker more than the cores `-n auto` is given: part of the suite waits on Mosquitto,
    Chromium and the processes it starts, and the third worker uses the cores meanwhile (on 2
    cores the suite took 186 s with 3 workers, 220 s with 2; 4 gained nothing more)."""
    return cores() + 1
