"""Player-facing words, kept apart from the rules.

Rules never build sentences: they name a message by key and hand over its
arguments (`Msg`). A catalog per language (engine.core.catalog) turns that into text
for the screen, the replay output or the log.
"""
from __future__ import annotations

from .catalog import (  # noqa: F401  (the catalogs' names, where the messages' users find them)
    DEFAULT_LANGUAGE,
    LANGUAGES,
    ONE,
    Said,
    Template,
    add_catalog,
    catalog,
    clashes,
    count_of,
    fill_with,
    forms,
    languages,
    plural,
    strict,
    words,
)
from .record import record


@record
class Msg(Said):
    """A message by key, with its arguments (which may be Msgs themselves)."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        return render(self, language)

    def __str__(self) -> str:
        return render(self)


def msg(key: str, /, **args: object) -> Msg:
    """Build a Msg; arguments are kept in a stable (sorted) order."""
    return Msg(key, tuple(sorted(args.items())) if args else ())


def render(message: Msg, language: str = DEFAULT_LANGUAGE) -> str:
    """The message's text in `language` (engine.core.catalog.words)."""
    return words(message.key, message.args, language)
