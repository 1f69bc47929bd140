"""The games of this project, one package each; the registry finds them through the
`tabletop.games` entry points in pyproject.toml, as it finds a game installed from elsewhere.

A game's texts join the catalogs when the registry takes the game in: importing a game
brings the registry, so a game's message said before any lookup still finds its text."""
from ..core import registry  # noqa: F401

