"""Player-facing words, kept apart from the rules.

Rules never build sentences: they name a message by key and hand over its
arguments (`Msg`). A catalog per language turns that into text for the
screen, the replay output or the log. Catalog lines use `\\n` to break lines;
each line is written to fit the 21-character screen for typical names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

DEFAULT_LANGUAGE = "en"

# language -> key -> template. Filled at import time by engine.text modules.
_CATALOGS: dict[str, dict[str, str]] = {}


@dataclass(frozen=True, slots=True)
class Msg:
    """A message by key, with its arguments (which may be Msgs themselves)."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        return render(self, language)

    def __str__(self) -> str:
        return render(self)


def msg(key: str, /, **args: object) -> Msg:
    """Build a Msg; arguments are kept in a stable (sorted) order."""
    return Msg(key, tuple(sorted(args.items())))


def add_catalog(language: str, entries: Mapping[str, str]) -> None:
    """Merge entries into a language's catalog; a key may be defined only once."""
    catalog = _CATALOGS.setdefault(language, {})
    clash = sorted(set(catalog) & set(entries))
    if clash:
        raise ValueError(f"message keys defined twice: {', '.join(clash)}")
    catalog.update(entries)


def catalog(language: str) -> Mapping[str, str]:
    return _CATALOGS.get(language, {})


def languages() -> tuple[str, ...]:
    return tuple(sorted(_CATALOGS))


def _arg_text(value: object, language: str) -> str:
    if isinstance(value, Msg):
        return render(value, language)
    if isinstance(value, (tuple, list)):
        return ", ".join(_arg_text(v, language) for v in value)
    return str(value)


def render(message: Msg, language: str = DEFAULT_LANGUAGE) -> str:
    """The message's text in `language`, falling back to English, then to the key."""
    template = _CATALOGS.get(language, {}).get(message.key)
    if template is None:
        template = _CATALOGS.get(DEFAULT_LANGUAGE, {}).get(message.key, message.key)
    args = {k: _arg_text(v, language) for k, v in message.args}
    return template.format(**args)
