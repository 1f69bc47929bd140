"""Message catalogs, one module per language and area, merged at import."""
from ..core.text import add_catalog
from . import en_core, fr_core

add_catalog("en", en_core.TEXT)
add_catalog("fr", fr_core.TEXT)
