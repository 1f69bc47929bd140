"""The staff's choices kept in the state dir (`settings.toml`): today, the table's language.

The language chosen from a menu wins over the config, so a restart keeps it; without one, the
config's `language` decides, and left unset ("auto"), the system locale does
(device/texts/locale.py).
"""
from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from pathlib import Path

import tomli_w

from device.paths import write_atomic
from device.texts.locale import resolve_language
from engine.core.catalog import LANGUAGES

from . import quarantine

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.toml"


def table_language(state_dir: Path, config_value: str | None, environ: Mapping[str, str]) -> str:
    """What the table shows: the staff's last choice, else `resolve_language`."""
    return saved_language(state_dir) or resolve_language(config_value, environ)


def saved_language(state_dir: Path) -> str | None:
    """The staff's last choice; a settings file that does not read is set aside."""
    path = state_dir / SETTINGS_FILE
    try:
        settings = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except OSError as exc:             # there, but not readable: nothing to move
        log.warning("%s ignored: %s", SETTINGS_FILE, exc.strerror or exc)
        return None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:   # not UTF-8, TOML, or deep
        quarantine.refuse(state_dir, path, f"not a settings file ({exc})")
        return None
    language = settings.get("language")
    if language is not None and language not in LANGUAGES:
        quarantine.refuse(state_dir, path, f"language {language!r} is not one of "
                                           f"{', '.join(LANGUAGES)}")
        return None
    return language


def remember_language(state_dir: Path, language: str) -> None:
    """Keep the choice for the next start; a read-only disk only loses that."""
    path = state_dir / SETTINGS_FILE
    try:
        settings = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        settings = {}
    settings["language"] = language
    try:
        write_atomic(path, tomli_w.dumps(settings))
    except OSError as exc:
        log.error("language not saved: %s", exc)
