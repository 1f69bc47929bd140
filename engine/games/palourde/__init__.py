"""Palourde: the rules in palourde.py, the parts it reads in the sibling modules."""
