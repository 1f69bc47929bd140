"""Every game registers itself on import; add one line per game."""
from . import palourde  # noqa: F401
from . import auberge, tribord  # noqa: F401
from . import tamalou  # noqa: F401
from . import flouk  # noqa: F401
