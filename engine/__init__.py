"""The rules engine: pure functions of game states. No I/O, clock, randomness or logging.

The games are found through the `tabletop.games` entry points (engine.core.registry), on the
first all_specs() or get().
"""
from . import text  # noqa: F401  (fills the catalogs with the texts every game shares)
from .core.events import Cancel, Choose, Confirm, Event, Tap
from .core.options import ConfigError
from .core.outcomes import Accepted, Info, Outcome, Prompt, Rejected, Result, Tally
from .core.registry import all_specs, get, problems
from .core.session import Op, Session
from .core.spec import GameConfig, GameSpec, make_config
from .core.step import legal_events, step
from .core.text import Msg, msg, render

__all__ = ["Accepted", "Cancel", "Choose", "ConfigError", "Confirm", "Event", "GameConfig",
           "GameSpec", "Info", "Msg", "Op", "Outcome", "Prompt", "Rejected", "Result", "Session",
           "Tally", "Tap", "all_specs", "get", "legal_events", "make_config", "msg", "problems",
           "render", "step"]
