"""The engine's generic machinery; games live in engine.games."""
