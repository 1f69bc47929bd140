"""Flouk: the rules in flouk.py, the parts it reads in the sibling modules."""
