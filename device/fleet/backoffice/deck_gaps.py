"""Which tables lack a game's deck: each table tells the café its decks in its state (name,
family, whether every card has a tag: device/fleet/table_state.py), and a table can play a game
only with a complete deck of the game's family."""
from __future__ import annotations


def lacking(tables: list[dict], specs) -> dict:
    """Per game (in the game menu's order), the tables that told their decks and hold no
    complete deck of its family; `untold`, the tables heard from that never told theirs (an
    older table: nothing is known of its decks)."""
    told = {t["name"]: t["state"]["decks"] for t in tables
            if isinstance(t.get("state"), dict) and "decks" in t["state"]}
    return {"games": [{"game": spec.id, "title": str(spec.title), "family": spec.deck,
                       "without": [name for name, decks in told.items()
                                   if not any(d["family"] == spec.deck and d["complete"]
                                              for d in decks)]}
                      for spec in specs],
            "untold": [t["name"] for t in tables if t["name"] not in told]}
