"""Message catalogs, one module per language and area, merged at import."""
from ..core.text import add_catalog
from . import en_core, en_look, en_options, fr_core, fr_look, fr_options

add_catalog("en", en_core.TEXT)
add_catalog("en", en_options.TEXT)
add_catalog("en", en_look.TEXT)
add_catalog("fr", fr_core.TEXT)
add_catalog("fr", fr_options.TEXT)
add_catalog("fr", fr_look.TEXT)
