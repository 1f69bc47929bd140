"""The `tabletop` command. Its start-up imports the parser only: a command's module, and what
that module needs, is imported when the command is called (device.cli.parser)."""
from __future__ import annotations

import os
import sys

from .parser import build_parser, lazy_language
from .pipes import EndsWithItsReader, die_of_sigpipe

__all__ = ["build_parser", "command", "main"]


def main(argv: list[str] | None = None) -> int:
    """`tabletop ...`; `--language` anywhere on the line sets the language of its output.

    Exit status: 0 done, 1 a failure (a check failed, nothing to show), 2 bad usage or input.
    """
    given = sys.argv[1:] if argv is None else list(argv)
    language, argv = lazy_language(given, os.environ)
    args = build_parser(language).parse_args(argv)
    args.language = language()
    args.language_asked = len(argv) < len(given)     # a valid --language was taken out
    read_games_lightly()
    if not getattr(args, "logs_later", False):    # a command that logs on some paths only
        from . import logs  # after parsing: --help and --version need no logging
        logs.for_command(args.verbose)
    if args.command == "deck":           # on the device itself `deck learn` reads its reader
        return args.handler(args, tag_source=real_reader_tags)
    return args.handler(args)


def read_games_lightly() -> None:
    """The registry finds the installed games with device/cli/entry_points.py, not importlib.metadata
    (whose imports would take about as long as the interpreter's start-up)."""
    from engine.core import entry_source

    from .entry_points import entry_points
    entry_source.READERS[:] = [entry_points]


def real_reader_tags():
    """`deck learn` on the device itself: tags come from the configured reader."""
    from device.config import config_path, load_config
    from device.parts import reader_tags
    return reader_tags(load_config(config_path(None)))


def command() -> None:
    """The `tabletop` console script and `python -m device.cli`: main(), ending quietly by
    SIGPIPE when the reader of its output has gone (`tabletop status | head`)."""
    sys.stdout = EndsWithItsReader(sys.stdout)
    try:
        try:
            status: int | str | None = main()
        except SystemExit as done:       # --help, --version and bad usage end in the parser
            status = done.code
        sys.stdout.flush()       # the last lines may wait in the buffer for a reader gone too
    except BrokenPipeError:
        die_of_sigpipe()
        raise                    # SIGPIPE ends the process: no platform here lacks it
    sys.exit(status)
