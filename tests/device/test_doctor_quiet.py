"""`tabletop doctor` off a Pi: what gpiozero warns of while it looks for a pin library (four
PinFactoryFallback warnings) is said by the buttons' own check line, not on stderr as well."""
from __future__ import annotations

import warnings

import pytest

from device.cli import main

pytest.importorskip("gpiozero")


def test_doctor_shows_no_library_warning(tmp_path, capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        main(["doctor", "--state-dir", str(tmp_path)])
        out, err = capsys.readouterr()
        assert [str(w.message) for w in caught] == []
    assert err == ""
    assert "buttons" in out                     # the check that opened the pins did run


def test_the_warnings_are_there_to_quiet():
    """Without the doctor's filter, opening a button off a Pi does warn: the test above
    checks something."""
    from gpiozero import Button
    from gpiozero.exc import BadPinFactory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Button(17).close()
            pytest.skip("a pin library answered here: nothing to fall back from")
        except BadPinFactory:
            pass
    assert any("PinFactoryFallback" in type(w.message).__name__ for w in caught)
