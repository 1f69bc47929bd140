"""L'Auberge des pirates: the rules in auberge.py, the parts it reads in the sibling modules,
and the pirates deck (deck.py), which A tribord! plays too."""
