"""The command line in the table's language: its messages and its --help.

Help texts are written as catalog keys (`help="cli.help.replay"`); the parser
class of a language renders them, and argparse's own words (usage, headings,
-h), when it prints the help. A help text that is no key is shown as written.
The language is chosen before the parser is built: `--language`, else the
config's `language`, else the system locale (device.texts.language).
"""
from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Mapping
from pathlib import Path
from typing import Any, overload

from device.config import LANGUAGES, ConfigFileError, config_path, load_config
from device.texts import say
from device.texts.language import resolve_language
from engine.core.text import DEFAULT_LANGUAGE, catalog

# argparse's own section headings, as it names them, and their keys
HEADINGS = {"positional arguments": "cli.positionals", "options": "cli.options",
            "optional arguments": "cli.options"}


@overload
def words(language: str, text: str) -> str: ...
@overload
def words(language: str, text: None) -> None: ...
def words(language: str, text: str | None) -> str | None:
    """`text` in `language` if it is a catalog key, else as it is."""
    return say(language, text) if text is not None and text in catalog(DEFAULT_LANGUAGE) else text


def parser_class(language: str) -> type[argparse.ArgumentParser]:
    """An ArgumentParser whose help speaks `language`; subparsers inherit the class."""

    class Formatter(argparse.HelpFormatter):
        def _get_help_string(self, action: argparse.Action) -> str | None:
            return words(language, action.help)

        def _format_text(self, text: str) -> str:
            return super()._format_text(words(language, text))

        def start_section(self, heading: str | None) -> None:
            super().start_section(None if heading is None else words(language, HEADINGS.get(heading, heading)))

        def add_usage(self, usage, actions, groups, prefix=None) -> None:
            if prefix is None:            # argparse passes "" when it builds a subcommand's prog
                prefix = say(language, "cli.usage")
            super().add_usage(usage, actions, groups, prefix)

    class Parser(argparse.ArgumentParser):
        def __init__(self, *, add_help: bool = True, **kwargs: Any) -> None:
            kwargs.setdefault("formatter_class", Formatter)
            # every --help ends saying where the rules are, after the parser's own epilog
            kwargs["epilog"] = " ".join(words(language, text)
                                        for text in (kwargs.get("epilog"), "cli.docs") if text)
            super().__init__(add_help=False, **kwargs)
            if add_help:
                self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                                  help="cli.help.help")

    return Parser


def cli_language(argv: list[str], environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """The language asked with `--language` (taken out of `argv`), else the config's or the
    locale's; and the arguments left for the parser."""
    rest, asked = [], None
    items = iter(argv)
    for word in items:
        if word == "--language" or word.startswith("--language="):
            asked = word.partition("=")[2] or next(items, "")
        else:
            rest.append(word)
    if asked is not None and asked not in LANGUAGES:
        rest = ["--language", asked] + rest      # the parser says which values it takes
    if asked in LANGUAGES:
        return asked, rest
    return resolve_language(_config_language(rest), environ), rest


def _config_language(argv: list[str]) -> str | None:
    """The `language` of the config the command will read, when it can be read."""
    given = Path(argv[argv.index("--config") + 1]) if "--config" in argv[:-1] else None
    try:
        return load_config(config_path(given)).language
    except ConfigFileError:
        return None            # the command itself reports a config it cannot read


def version() -> str:
    """The installed distribution's version (its metadata, as pip installed it)."""
    try:
        return importlib.metadata.version("tabletop-companion")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"
