"""The staff's switch between the languages the table speaks (the menus' Language item).
Which one it speaks at start, and keeping the choice, is device/storage/settings.py's."""
from __future__ import annotations

from engine.core.catalog import LANGUAGES


def next_language(language: str) -> str:
    """The menu's Language item: the language after this one, round the list."""
    current = LANGUAGES.index(language) if language in LANGUAGES else -1
    return LANGUAGES[(current + 1) % len(LANGUAGES)]
