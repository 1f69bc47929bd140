"""The device's own texts, English and French: its screens, the kiosk's, the fleet's, the command
line's. Importing this package registers every catalog with the engine's texts."""
from engine.core.catalog import words

from . import cli_en, fleet_en, kiosk_en, ui_en, web_en  # noqa: F401


def say(language: str, key: str, **args) -> str:
    """A message of the catalogs, in `language` (the command line's, a log's, a file's)."""
    return words(key, args.items(), language)
