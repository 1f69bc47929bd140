"""The device's own texts, English and French: its screens, the kiosk's, the fleet's, the command
line's. Importing this package registers every catalog with the engine's texts, each part of
each language read the first time one of its texts is asked for: a command that says a line of
the command line's texts in English reads that part alone, not the ten."""
from __future__ import annotations

import importlib

from engine.core.catalog import LANGUAGES, add_catalog, add_part, words

# each part (its modules: <part>_en, <part>_fr) and the key prefixes of its texts
PARTS = {"cli": ("cli.", "learn."), "fleet": ("fleet.", "dash."), "kiosk": ("kiosk.",),
         "ui": ("ui.",), "web": ("web.",)}


def _reader(part: str, language: str):
    def read() -> None:
        add_catalog(language, importlib.import_module(f"{__name__}.{part}_{language}").TEXT)
    return read


for _part, _prefixes in PARTS.items():
    for _language in LANGUAGES:
        add_part(_language, _prefixes, _reader(_part, _language))


def say(language: str, key: str, **args) -> str:
    """A message of the catalogs, in `language` (the command line's, a log's, a file's)."""
    return words(key, args.items(), language)
