"""The command line in the table's language: its messages and its --help.

Help texts are written as catalog keys (`help="cli.help.replay"`); the parser
class of a language renders them, and argparse's own words (usage, headings,
-h), when it prints the help. A help text that is no key is shown as written.
The language is `--language`, else the config's `language`, else the system locale
(device/texts/locale.py); it is worked out the first time something is said in it.

Every command starts by building the parser, so the parser is cheap: each command's
arguments are added by its own module, imported only when the command is named (COMMANDS),
and the catalogs, the config and the engine are imported only once words are needed.
`tabletop --version` imports none of them.
"""
from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from functools import cache

from device.install.distribution import version

TYPE_CHECKING = False               # as typing's, which costs every command's start-up to import
if TYPE_CHECKING:
    from typing import Any

DEFAULT_LANGUAGE = "en"            # engine.core.catalog's; a test holds them equal
LANGUAGES = ("en", "fr")           # engine.core.catalog's; a test holds them equal

# Each command: its module in device/cli, whose add_commands(subparsers) adds the command's
# parser and whose handler runs it, and the help the root's list gives it before that.
COMMANDS = {
    "replay": ("replay", "cli.help.replay"),
    "run": ("run", "cli.help.run"),
    "status": ("status", "cli.help.status"),
    "config": ("config", "cli.help.config"),
    "deck": ("deck", "cli.help.deck"),
    "cards": ("cards", "cli.help.cards"),
    "players": ("players", "cli.help.players_roster"),
    "history": ("history", "cli.help.history"),
    "dashboard": ("dashboard", "cli.help.dashboard"),
    "fleet": ("fleet", "cli.help.fleet"),
    "bench": ("bench", "cli.help.bench"),
    "doctor": ("doctor", "cli.help.doctor"),
    "check-game": ("check_game", "cli.help.check_game"),
    "guide": ("guide", "cli.help.guide"),
    "completion": ("completion", "cli.help.completion"),
}

# argparse's own section headings, as it names them, and their keys
HEADINGS = {"positional arguments": "cli.positionals", "options": "cli.options",
            "optional arguments": "cli.options"}


def words(language: str, text: str) -> str:
    """`text` in `language` if it is a catalog key, else as it is."""
    # the catalogs are imported when help is shown, not by every command's start
    from device.texts import say
    from engine.core.catalog import catalog
    return say(language, text) if text in catalog(DEFAULT_LANGUAGE) else text


def terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size() says it: $COLUMNS, else the width of
    the terminal on standard output, else 80."""
    import os
    import sys
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def parser_class(language: str | Callable[[], str]) -> type[argparse.ArgumentParser]:
    """An ArgumentParser whose help speaks `language` (or the language a call gives, asked
    when the help is shown); subparsers inherit the class."""
    if isinstance(language, str):
        return parser_class(lambda: language)
    said = language

    class Formatter(argparse.HelpFormatter):
        def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                     width: int | None = None) -> None:
            # argparse makes a formatter for each argument added, and asks shutil for the
            # terminal's width: shutil (and the compression modules it imports) would be in
            # every command's start-up
            super().__init__(prog, indent_increment, max_help_position,
                             terminal_columns() - 2 if width is None else width)

        def _get_help_string(self, action: argparse.Action) -> str | None:
            return None if action.help is None else words(said(), action.help)

        def _format_text(self, text: str) -> str:
            # a text is a key, or keys a line each (the epilog); argparse refills the lines
            return super()._format_text(" ".join(words(said(), part) for part in text.split("\n")))

        def start_section(self, heading: str | None) -> None:
            super().start_section(None if heading is None else words(said(), HEADINGS.get(heading, heading)))

        def add_usage(self, usage, actions, groups, prefix=None) -> None:
            if prefix is None:            # argparse passes "" when it builds a subcommand's prog
                prefix = words(said(), "cli.usage")
            super().add_usage(usage, actions, groups, prefix)

    class Parser(argparse.ArgumentParser):
        def __init__(self, *, add_help: bool = True, **kwargs: Any) -> None:
            kwargs.setdefault("formatter_class", Formatter)
            # every --help ends saying where the rules are, after the parser's own epilog
            # (the formatter says each in the language)
            kwargs["epilog"] = "\n".join(text for text in (kwargs.get("epilog"), "cli.docs") if text)
            super().__init__(add_help=False, **kwargs)
            if add_help:
                self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                                  help="cli.help.help")

    return Parser


def build_parser(language: str | Callable[[], str] = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The `tabletop` parser, its --help in `language` (help texts are catalog keys). A
    command's own parser is built, and its module imported, when the command is named."""
    parser = parser_class(language)(prog="tabletop", description="cli.description",
                                    epilog="cli.exit_status")
    parser.add_argument("--language", choices=LANGUAGES, help="cli.help.language")
    parser.add_argument("--version", action=Version, help="cli.help.version")
    parser.add_argument("-v", "--verbose", action="store_true", help="cli.help.verbose")
    commands = parser.add_subparsers(dest="command", required=True, action=LazyCommands)
    assert isinstance(commands, LazyCommands)        # what add_subparsers made of action=
    for name, (module, help) in COMMANDS.items():
        commands.add_lazy(name, f"{__package__}.{module}", help)
    return parser


class LazyCommands(argparse._SubParsersAction):
    """Subcommands named at once, each built by its module's add_commands when first looked up
    (parsed, or walked by completion)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parsers = _Parsers(self)
        # argparse reads and writes the map as a dict: a mapping that builds on lookup does
        self._name_parser_map = self.choices = self._parsers  # type: ignore[assignment]  # a Mapping, not a dict

    def add_lazy(self, name: str, module: str, help: str) -> None:
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        self._parsers.waiting(name, module)


class _Parsers(MutableMapping[str, argparse.ArgumentParser]):
    """Command name -> its parser, built from its module on the first lookup."""

    def __init__(self, action: LazyCommands) -> None:
        self._action = action
        self._parsers: dict[str, argparse.ArgumentParser | str] = {}    # str: its module, unread
        self._building: str | None = None

    def waiting(self, name: str, module: str) -> None:
        self._parsers[name] = module

    def __getitem__(self, name: str) -> argparse.ArgumentParser:
        found = self._parsers[name]
        if isinstance(found, str):
            helps = len(self._action._choices_actions)
            self._building = name            # add_parser asks whether the name is taken
            try:
                importlib.import_module(found).add_commands(self._action)
            finally:
                self._building = None
            del self._action._choices_actions[helps:]     # its help line is listed already
            found = self._parsers[name]
            if isinstance(found, str):
                raise LookupError(f"{found}.add_commands added no {name!r} command")
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._parsers and name != self._building

    def __setitem__(self, name: str, parser: argparse.ArgumentParser) -> None:
        self._parsers[name] = parser

    def __delitem__(self, name: str) -> None:
        del self._parsers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsers)

    def __len__(self) -> int:
        return len(self._parsers)


class Version(argparse.Action):
    """--version: the installed version, read when asked."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"tabletop {version()}")
        parser.exit()


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """The language asked with `--language` if it is one, and the arguments left for the
    parser (an unknown one stays: the parser says which values it takes)."""
    rest, asked = [], None
    items = iter(argv)
    for word in items:
        if word == "--language" or word.startswith("--language="):
            asked = word.partition("=")[2] or next(items, "")
        else:
            rest.append(word)
    if asked is not None and asked not in LANGUAGES:
        return None, ["--language", asked] + rest
    return asked, rest


def cli_language(argv: list[str], environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """The language asked with `--language` (taken out of `argv`), else the config's or the
    locale's; and the arguments left for the parser."""
    asked, rest = take_language(argv)
    return asked or table_language(rest, environ), rest


def table_language(argv: list[str], environ: Mapping[str, str]) -> str:
    """The language of the config the command will read, else the locale's."""
    from device.texts.locale import resolve_language  # with the catalogs: when words are due
    return resolve_language(_config_language(argv), environ)


def lazy_language(argv: list[str], environ: Mapping[str, str]) -> tuple[Callable[[], str], list[str]]:
    """cli_language, the config read only when the language is first asked."""
    asked, rest = take_language(argv)
    return cache(lambda: asked or table_language(rest, environ)), rest


def _config_language(argv: list[str]) -> str | None:
    """The `language` of the config the command will read, when it names one. Only that key
    is read: checking the whole file (device.config) costs a command its start-up, and the
    command itself reports a config that does not read, in the language found here. As
    device.paths.config_path finds it, in os.path's words: pathlib would cost every command
    that words something a sixth of its start-up."""
    import os

    from device.paths import GIVEN_MOST, SYSTEM_CONFIG_FILE
    path = argv[argv.index("--config") + 1] if "--config" in argv[:-1] else SYSTEM_CONFIG_FILE
    if not os.path.isfile(path):                # a pipe (`--config <(...)`) is the command's to read
        return None
    import tomllib
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(GIVEN_MOST + 1)
        if len(text) > GIVEN_MOST:              # the command itself refuses it, in English
            return None
        language = tomllib.loads(text).get("language")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):    # ValueError: bad TOML
        return None
    return language if language in LANGUAGES else None
