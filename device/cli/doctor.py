"""`tabletop doctor`: is this table ready to play? One line a check, and what to do about it.

    OK    python     Python 3.11.2 (/opt/tabletop/bin/python)
    FAIL  device     /dev/spidev0.0 is missing  -> sudo raspi-config nonint do_spi 0 ...
    WARN  decks      tamalou: no deck  -> tabletop deck learn tamalou, or ...

Python and packages, the config, pin conflicts, the board (which Pi, its GPIO
chip, the PN532's UART), the device nodes and their permissions, group
membership, the reader's self test (opened and polled once), the display, the
buttons (none down before anyone pressed), any game plug-in refused, each game's
decks and the state dir's free space. Exit 1 when a check FAILs, else 0.
`--sim` runs the same checks on the simulated parts. The installed service holds
the reader and the panel, so while it runs they are left alone (stop it to test
them).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import warnings
from pathlib import Path
from typing import TextIO

from device.assembly import state_dir_for
from device.config import config_path
from device.texts import say
from engine.core.text import DEFAULT_LANGUAGE

from . import doctor_checks as checks
from .doctor_board import board_checks, buttons_check
from .doctor_checks import Check
from .doctor_web import web_check


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add the `doctor` command to the `tabletop` parser's subcommands."""
    parser = subparsers.add_parser("doctor", help="cli.help.doctor",
                                   description="cli.help.doctor_description")
    parser.add_argument("--sim", action="store_true", help="cli.help.doctor_sim")
    parser.add_argument("--config", type=Path, metavar="FILE", help="cli.help.doctor_config")
    parser.add_argument("--state-dir", type=Path, metavar="DIR", help="cli.help.state_dir")
    parser.add_argument("--json", action="store_true", help="cli.help.json")
    parser.set_defaults(handler=run, language=DEFAULT_LANGUAGE)      # main() sets the chosen one


def run(args: argparse.Namespace) -> int:
    # what a library warns of while the parts are opened (gpiozero falling back from one pin
    # library to the next off a Pi) the checks say in their own lines: not on stderr too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = examine(config_path(args.config), args.state_dir, args.sim)
    if args.json:
        return report_json(found, sys.stdout)
    return report(found, sys.stdout, args.language)


def examine(config_file: Path | None, state_dir: Path | None, sim: bool) -> list[Check]:
    found = [checks.python_check()]
    loaded, config = checks.config_check(config_file)
    found += checks.package_checks(config, sim)
    found.append(loaded)
    if config is None:
        found.append(Check("WARN", "parts", "not checked: the config does not load",
                           "fix the config first"))
    else:
        found += [checks.pin_check(config), *board_checks(config, sim),
                  *checks.device_checks(config, sim), *checks.group_checks(config, sim)]
        if not sim and checks.service_running():
            found.append(Check("WARN", "parts", "the tabletop service is running: reader and "
                               "display not tested", "sudo systemctl stop tabletop, run doctor "
                               "again, then sudo systemctl start tabletop"))
            found += checks.stuck_button_checks()
        else:
            found += [checks.reader_check(config, sim), checks.display_check(config, sim),
                      buttons_check(config, sim)]
    where = state_dir_for(state_dir, config)
    page = [web_check(config, where, sim)] if config is not None else []     # the table's page
    return found + page + checks.game_checks() + checks.deck_checks(where, sim) + \
        [checks.space_check(where)]


def report(found: list[Check], out: TextIO, language: str = DEFAULT_LANGUAGE) -> int:
    width = max(len(check.name) for check in found)
    for check in found:
        fix = f"  -> {check.fix}" if check.fix else ""
        out.write(f"{check.status:<4}  {check.name:<{width}}  {check.detail}{fix}\n")
    failed = sum(check.status == "FAIL" for check in found)
    warned = sum(check.status == "WARN" for check in found)
    if failed:
        out.write(say(language, "cli.doctor.failed", failed=failed, warned=warned) + "\n")
    elif warned:
        out.write(say(language, "cli.doctor.warned", warned=warned) + "\n")
    else:
        out.write(say(language, "cli.doctor.ready") + "\n")
    return 1 if failed else 0


def report_json(found: list[Check], out: TextIO) -> int:
    """The checks as one JSON object: `ready`, the counts, and each check's fields."""
    failed = sum(check.status == "FAIL" for check in found)
    out.write(json.dumps({"ready": not failed, "failed": failed,
                          "warned": sum(check.status == "WARN" for check in found),
                          "checks": [dataclasses.asdict(check) for check in found]},
                         ensure_ascii=False) + "\n")
    return 1 if failed else 0
