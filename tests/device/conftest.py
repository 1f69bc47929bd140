"""The device tests' shared fixtures: the worker's one Chromium (tests/device/browsers.py),
and links that connect again promptly for the tests that take the broker away."""
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


@pytest.fixture
def prompt_reconnects(monkeypatch):
    """A link that lost the broker tries again after 0.1 s, doubling up to a second, where a
    table waits a second, doubling up to a minute: the tests that take the broker away and
    bring it back wait for the link to be up again, and how long it waits is not what they
    check (each waited 1-3 s of the backoff, doing nothing)."""
    from device.fleet import link
    monkeypatch.setattr(link, "BACKOFF_S", (0.1, 1.0))
