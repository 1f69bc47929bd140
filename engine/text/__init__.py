"""The texts every game and the device share (core), and French typography (fr_typeset).

A game's own texts live in its package (texts_en.py, texts_fr.py) and join the catalogs
when the registry takes the game in.
"""
from ..core.catalog import add_catalog
from . import en_core, fr_core

add_catalog("en", en_core.TEXT)
add_catalog("fr", fr_core.TEXT)
