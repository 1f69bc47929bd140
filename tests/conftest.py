"""Shared test fixtures and the --update-goldens switch."""
import pytest


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden playthrough files instead of comparing them")


@pytest.fixture
def update_goldens(request):
    return request.config.getoption("--update-goldens")
