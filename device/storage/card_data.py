"""A café's own card data (Flouk's printed white numbers, Decrees and effects).

A checked file installed as `<state dir>/cards/<deck>.toml` replaces the shipped
one for every game on this table; without it the shipped file is used.
"""
from __future__ import annotations

from pathlib import Path

import seeds
from device.paths import write_atomic
from engine.core.spec import GameSpec


def card_file(state_dir: Path, deck: str) -> Path:
    return state_dir / "cards" / f"{deck}.toml"


def game_data(spec: GameSpec, state_dir: Path | None) -> dict | None:
    """The card data `spec` starts with on this table."""
    path = card_file(state_dir, spec.deck) if state_dir is not None else None
    text = path.read_text(encoding="utf-8") if path is not None and path.exists() else None
    return seeds.game_data(spec.id, spec.deck, text)


def problems(deck: str, text: str) -> list[str]:
    """What is wrong with a card file, each problem naming the card and the field."""
    return seeds.card_file_problems(deck, text)


def install(state_dir: Path, deck: str, text: str) -> list[str]:
    """Check, then install a card file; nothing is written when there is a problem."""
    found = problems(deck, text)
    if not found:
        write_atomic(card_file(state_dir, deck), text)
    return found
