"""Tamalou: the rules in tamalou.py, the parts it reads in the sibling modules."""
