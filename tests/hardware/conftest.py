"""Fixtures for the hardware tests: a gpiozero MockFactory that is reset after each test."""
from __future__ import annotations

import pytest


@pytest.fixture
def mock_factory():
    """A fresh MockFactory as the process-wide pin factory.

    MockFactory keeps pins reserved after close(), so it is closed *and* reset
    here, and the previous factory is restored.
    """
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.close()
        factory.reset()
        Device.pin_factory = saved
