"""Shared test fixtures, the --update-goldens switch and hypothesis's profiles."""
import os

import pytest
from hypothesis import settings

from engine.core import text

# A text a catalog lacks fails the test that renders it, rather than show its key on the screen.
text.strict()

# `make test` and CI: the same examples every run, nothing kept between runs, no deadline
# (a loaded 2-core machine is slow, not wrong). Explore with random seeds on purpose:
# HYPOTHESIS_PROFILE=explore make test
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden playthrough files instead of comparing them")


@pytest.fixture
def update_goldens(request):
    return request.config.getoption("--update-goldens")


@pytest.fixture(autouse=True)
def english_locale(monkeypatch):
    """The command line speaks the system locale's language: tests expect English everywhere."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
