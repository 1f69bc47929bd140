"""Check a café's Flouk card file (docs/flouk-cards.md) before a game reads it."""
from __future__ import annotations

import tomllib

from engine.games.flouk.cards import card_problems


def check_card_file(text: str) -> list[str]:
    """Every problem of a Flouk card file's text, each naming the card and the field; [] if good."""
    try:
        data = tomllib.loads(text)
    except ValueError as exc:          # bad TOML, or a number past 4,300 digits
        return [f"not a valid TOML file: {str(exc)[:120]}"]
    except RecursionError:             # tables or arrays nested thousands deep
        return ["not a valid TOML file: tables or arrays nested too deeply"]
    return card_problems({"cards": data.get("cards")})


def check_learned(details) -> tuple[dict, list[str]]:
    """Split learned details ({card id: {"people"|"white": value}}) into the good ones and one
    problem line for each bad one, naming the card and the detail."""
    from engine.games.flouk.cards import detail_problem

    if not isinstance(details, dict):
        return {}, ["learned details must be a table of card ids"]
    good: dict = {}
    problems = []
    for card, found in details.items():
        if not isinstance(found, dict):
            problems.append(f"{card!r}: must be a table of details")
            continue
        for detail, value in found.items():
            problem = detail_problem(str(card), str(detail), value)
            if problem:
                problems.append(problem)
            else:
                good.setdefault(card, {})[detail] = value
    return good, problems
