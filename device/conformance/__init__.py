"""The checks a game must pass to play on the table, for this project's games and anyone's.

`tabletop check-game ID` runs them on one registered game; the project's own suite runs the
same functions on every game it ships (tests/engine/test_conformance.py). They follow
OpenSpiel's random simulation test: seeded random legal playouts to the end, with the
invariants, illegal events, undo and redo, JSON round-trips and every text checked on the way.
"""
from .checks import Nonconformity, check_metadata, check_playout, check_texts

__all__ = ["Nonconformity", "check_metadata", "check_playout", "check_texts"]
