"""Words no player may be called: a game's menus answer with choice ids (`no_steal`,
`take_discard`, `no_pair`, ..., numbers, `hand:Ann`) and a prompt offering a player by name
answers with the name itself, so a player named like a choice would be that choice
("no_steal" could never be stolen from). The ids live in the games' catalogs as the last words of their keys
(`pa.no_steal`, `tm.action.take_discard`, `la.opt.no_pair`), and the house rules' keys in the
games' specs; tests/device/test_players_names.py plays every game's prompts and checks that no
choice id escapes this list.
"""
from __future__ import annotations

import functools


@functools.cache
def reserved() -> frozenset[str]:
    """Every choice id, option key and prompt id a game may use (case as written)."""
    import engine
    from engine.core.catalog import LANGUAGES, catalog
    words: set[str] = set()
    for spec in engine.all_specs():
        words.add(spec.id)
        words.update(option.key for option in spec.options)
    for language in LANGUAGES:
        for key in catalog(language):
            words.update(part for part in key.split(".") if not part.isupper())
    return frozenset(words)


def shaped_like_a_choice(name: str) -> bool:
    """A number (a picker's answer), `kind:name` (a choice about a player, as Flouk's
    `hand:Ann`) or a lower-case word joined by `_` (as every game's ids are written)."""
    return (name.isascii() and name.isdigit()) or ":" in name or (name.islower() and "_" in name)


def reserved_word(name: str) -> str | None:
    """Why `name` may not be a player's (a game's choice or rule has it), else None."""
    if name in reserved() or shaped_like_a_choice(name):
        return f"{name!r} is a word a game's menus answer with: choose another name"
    return None
