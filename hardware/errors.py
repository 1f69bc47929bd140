"""Errors the hardware layer raises. Each message says what to check or do."""
from __future__ import annotations


class ReaderError(OSError):
    """The tag reader is absent, wedged or answers garbage.

    An ``OSError``, so the reader loop counts it with every other I/O failure,
    backs off and tries again: the part may come back.
    """


class DisplayError(OSError):
    """The OLED cannot be opened (bus missing, no permission, wrong address)."""
