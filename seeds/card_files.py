"""A café's card file and the details a table learned, checked before a game reads them.

Only a deck whose cards carry printed details has either (Flouk's: a Chief's white number, an
Action's people); its game says what is wrong with them (GameSpec.card_problems and
.detail_problem), each problem naming the card and the field.
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any


def check_card_file(card_problems: Callable[[Any], list[str]], text: str) -> list[str]:
    """Every problem of a card file's text, each naming the card and the field; [] if good."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [f"not a valid TOML file: {exc}"]
    except RecursionError:          # tomllib recurses once a level of [[[...]]]
        return ["not a valid TOML file: arrays or tables nested too deeply"]
    except ValueError as exc:       # int() of a number past 4,300 digits
        return [f"not a valid TOML file: a value cannot be read ({exc})"]
    return card_problems({"cards": data.get("cards")})


def check_learned(detail_problem: Callable[[str, str, object], str | None],
                  details) -> tuple[dict, list[str]]:
    """Split learned details ({card id: {detail: value}}) into the good ones and one problem
    line for each bad one, naming the card and the detail."""
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
