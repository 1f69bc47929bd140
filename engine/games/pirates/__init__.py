"""The two games of the pirates deck and the deck they share (deck.py)."""
