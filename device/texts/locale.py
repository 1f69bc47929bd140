"""The language a command or a table speaks when nobody chose one: the config's `language`, else
the system locale. Apart from the staff's saved choice (device/storage/settings.py), which reads
and writes files: a command that only speaks starts without that."""
from __future__ import annotations

from collections.abc import Mapping

from engine.core.catalog import DEFAULT_LANGUAGE, LANGUAGES

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def resolve_language(config_value: str | None, environ: Mapping[str, str]) -> str:
    """The config's language if it names one, else the system locale's: LC_ALL, then
    LC_MESSAGES, then LANG, the first one set, French when it starts with "fr"."""
    if config_value in LANGUAGES:
        return config_value
    locale = next((environ[name] for name in LOCALE_VARIABLES if environ.get(name)), "")
    return "fr" if locale.lower().startswith("fr") else DEFAULT_LANGUAGE
