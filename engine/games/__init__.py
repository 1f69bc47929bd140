"""Every game registers itself on import; add one line per game.

The game packages' own __init__ modules import nothing, so no game module
imports back the package that imports it.
"""
from .flouk import flouk  # noqa: F401
from .palourde import palourde  # noqa: F401
from .pirates import auberge, tribord  # noqa: F401
from .tamalou import tamalou  # noqa: F401
