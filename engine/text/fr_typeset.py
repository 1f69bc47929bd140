"""French typography for a 21-column screen.

French puts a space before « : ; ! ? » and inside guillemets. The catalogs are
written with ordinary spaces for readability; `typeset` turns those into
non-breaking ones, so a line never starts with a lone sign when text wraps.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..core.catalog import Template

NBSP = "\u00a0"


def typeset(entries: Mapping[str, Template]) -> dict[str, Template]:
    return {key: _typeset(text) if isinstance(text, str)
            else {form: _typeset(value) for form, value in text.items()}
            for key, text in entries.items()}


def _typeset(text: str) -> str:
    for sign in ":;!?»":
        text = text.replace(" " + sign, NBSP + sign)
    return text.replace("« ", "«" + NBSP)
