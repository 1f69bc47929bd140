"""The browser tests' fixtures: the worker's one Chromium (tests/device/browsers.py)."""
from __future__ import annotations

import pytest

from tests.device.browsers import SharedChromium


@pytest.fixture(scope="session")
def shared_chromium():
    """Started by the first test that uses it; a worker that runs no browser test starts none."""
    chromium = SharedChromium()
    yield chromium
    chromium.close()


@pytest.fixture
def browser(shared_chromium):
    """The worker's Chromium for one test: the contexts (profiles) the test opens are closed
    after it, so no test sees another's cookies, storage or pages."""
    with shared_chromium.in_use() as chromium:
        before = set(chromium.contexts)
        try:
            yield chromium
        finally:
            for context in chromium.contexts:
                if context not in before:
                    context.close()
