"""`tabletop config --example` and `tabletop config --check FILE`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .config import ConfigError, example_config, load_config


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `config` command to the `tabletop` parser's subcommands."""
    parser = subparsers.add_parser("config", help="print an example configuration or check one",
                                   description="Print a commented example configuration, or check "
                                               "a configuration file.")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--example", action="store_true",
                      help="print every key with its default and what it does")
    what.add_argument("--check", type=Path, metavar="FILE", help="check FILE; exit 2 if it is wrong")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.example:
        sys.stdout.write(example_config())
        return 0
    try:
        config = load_config(args.check)
    except ConfigError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    print(f"{args.check}: OK (reader {config.reader.kind}, display {config.display.kind} on "
          f"{config.display.bus}, kiosk {'on' if config.kiosk.enabled else 'off'})")
    return 0
