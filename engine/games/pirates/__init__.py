"""The two games of the pirates deck (RULES.md §2, §3) and the deck they share (deck.py)."""
