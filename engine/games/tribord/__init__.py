"""A tribord!: the rules in tribord.py; it plays L'Auberge's deck (engine.games.auberge.deck)."""
