"""Flouk (RULES.md §5): the rules in flouk.py, the parts it reads in the sibling modules."""
