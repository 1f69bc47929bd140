"""`tabletop guide rules|cards [GAME]`: what an installed table knows of its games, from each
game's own package: how it plays on the device and its house rules (the package's rules.md),
and every card id its reader takes. A game installed from elsewhere is told the same way.

    tabletop guide rules palourde
    tabletop guide cards | grep clam
"""
from __future__ import annotations

import argparse

import engine
from device.texts import say

from .rules_page import RulesPageError, game_file, rules_page

TOPICS = ("rules", "cards")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("guide", help="cli.help.guide")
    parser.add_argument("topic", choices=TOPICS, help="cli.help.guide_topic")
    parser.add_argument("game", nargs="?", help="cli.help.guide_game")
    parser.set_defaults(handler=run, logs_later=True)       # it logs nothing: no logging module


def run(args: argparse.Namespace) -> int:
    try:
        specs = [engine.get(args.game)] if args.game else list(engine.all_specs())
    except KeyError as exc:
        from .refusal import refuse  # here: the refusal's imports only for a refusal
        return refuse(args.language, exc.args[0])
    for spec in specs:
        print(f"# {spec.title} ({spec.id})\n")
        print(rules_text(spec, args.language) if args.topic == "rules" else " ".join(spec.card_ids()))
        print()
    return 0


def rules_text(spec: engine.GameSpec, language: str) -> str:
    """The game's rules.md as docs/rules.md prints it: the prose, then its house rules'
    table (rules_page.py); the file as it is where it has no house-rules line."""
    try:
        return rules_page(spec).strip()
    except RulesPageError:
        return game_file(spec, "rules.md").strip()
    except (OSError, ModuleNotFoundError):
        return say(language, "cli.guide.no_rules", game=spec.id)
