"""The `tabletop` command. Its start-up imports the parser only: a command's module, and what
that module needs, is imported when the command is called (device.cli.parser)."""
from __future__ import annotations

import os
import sys

from .parser import build_parser, lazy_language
from .pipes import EndsWithItsReader, die_of_sigpipe

TYPE_CHECKING = False               # as typing's, which costs every command's start-up to import
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

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
        log_once_imported(args.verbose)
    if args.command == "deck":           # on the device itself `deck learn` reads its reader
        return args.handler(args, tag_source=real_reader_tags)
    return args.handler(args)


def log_once_imported(verbose: bool) -> None:
    """The command's log (device/cli/logs.py) set up now if the logging module is imported, else
    as it is: nothing logs without importing it, so a command whose path logs nothing
    (`tabletop status`, a `history` in order) starts without logging and what it brings
    (threading, traceback, string), about a third of the interpreter's own start-up."""
    if "logging" in sys.modules:
        from . import logs
        logs.for_command(verbose)
        return
    waiting = [finder for finder in sys.meta_path if isinstance(finder, SetUpLogOnImport)]
    if waiting:
        waiting[0].verbose = verbose        # a later command of the same process (the tests')
    else:
        sys.meta_path.insert(0, SetUpLogOnImport(verbose))


class SetUpLogOnImport:
    """An import finder that finds nothing itself: it lets the others find `logging`, and has
    the command's log set up as soon as the module has run, before anything can log."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "logging":
            return None
        spec = next((found for finder in sys.meta_path if finder is not self
                     and hasattr(finder, "find_spec")
                     and (found := finder.find_spec(name, path, target)) is not None), None)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            if self in sys.meta_path:       # waiting no more (a spec only looked up, not run, left it)
                sys.meta_path.remove(self)
            log_once_imported(self.verbose)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


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
