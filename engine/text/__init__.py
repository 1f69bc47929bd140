"""Message catalogs, one module per language and area, merged at import."""
from ..core.text import add_catalog
from . import en_core

add_catalog("en", en_core.TEXT)
