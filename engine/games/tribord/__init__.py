"""A tribord!: the rules in tribord.py, the parts it reads in the sibling modules; it plays
L'Auberge's deck (engine.games.auberge.deck)."""
