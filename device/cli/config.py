"""`tabletop config --example` and `tabletop config --check FILE`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.config import ConfigFileError, example_config, load_config
from engine.core.text import DEFAULT_LANGUAGE

from device.texts import say


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `config` command to the `tabletop` parser's subcommands."""
    parser = subparsers.add_parser("config", help="cli.help.config",
                                   description="cli.help.config_description")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--example", action="store_true", help="cli.help.config_example")
    what.add_argument("--check", type=Path, metavar="FILE", help="cli.help.config_check")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    if args.example:
        sys.stdout.write(example_config())
        return 0
    try:
        config = load_config(args.check)
    except ConfigFileError as exc:
        print(say(args.language, "cli.problem", problem=exc), file=sys.stderr)
        return 2
    kiosk = say(args.language, "opt.on" if config.kiosk.enabled else "opt.off")
    print(say(args.language, "cli.config.ok", file=args.check, reader=config.reader.kind,
              display=config.display.kind, bus=config.display.bus, kiosk=kiosk))
    return 0
