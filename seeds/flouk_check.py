"""Check a café's Flouk card file (docs/flouk-cards.md) before a game reads it."""
from __future__ import annotations

import tomllib

from engine.games.flouk.cards import card_problems


def check_card_file(text: str) -> list[str]:
    """Every problem of a Flouk card file's text, each naming the card and the field; [] if good."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [f"not a valid TOML file: {exc}"]
    return card_problems({"cards": data.get("cards")})
