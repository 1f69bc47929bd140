"""The rules engine: pure functions of game states. No I/O, clock, randomness or logging.

The games are found through the `tabletop.games` entry points (engine.core.registry), on the
first all_specs() or get().

Each name below is imported when first used (PEP 562): a command that only says a catalog
text reaches engine.core.text through this package, and must not pay for the whole engine
at its start.
"""
# ruff: noqa: F401  (the names imported for the type checker are the package's, not its own)
from __future__ import annotations

from .core.lazy import lazy_names

TYPE_CHECKING = False               # as typing's, which costs every command's start-up to import
if TYPE_CHECKING:                   # the names below, for the type checker
    from .core.events import Cancel, Choose, Confirm, Event, Tap
    from .core.options import ConfigError
    from .core.outcomes import Accepted, Info, Outcome, Prompt, Rejected, Result, Tally
    from .core.registry import all_specs, get, problems
    from .core.session import Op, Session
    from .core.spec import GameConfig, GameSpec, make_config
    from .core.step import legal_events, step
    from .core.text import Msg, msg, render

# name -> the module that defines it
_HOMES = {
    **dict.fromkeys(("Cancel", "Choose", "Confirm", "Event", "Tap"), ".core.events"),
    "ConfigError": ".core.options",
    **dict.fromkeys(("Accepted", "Info", "Outcome", "Prompt", "Rejected", "Result", "Tally"),
                    ".core.outcomes"),
    **dict.fromkeys(("all_specs", "get", "problems"), ".core.registry"),
    **dict.fromkeys(("Op", "Session"), ".core.session"),
    **dict.fromkeys(("GameConfig", "GameSpec", "make_config"), ".core.spec"),
    **dict.fromkeys(("legal_events", "step"), ".core.step"),
    **dict.fromkeys(("Msg", "msg", "render"), ".core.text"),
}

__all__ = sorted(_HOMES)

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
