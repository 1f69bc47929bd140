"""The rules engine: pure functions of game states. No I/O, clock, randomness or logging.

Importing `engine` registers every game (engine.games).
"""
from . import games, text  # noqa: F401  (registers the games, fills the catalogs)
from .core.events import Cancel, Choose, Confirm, Event, Tap
from .core.options import ConfigError
from .core.outcomes import Accepted, Info, Outcome, Prompt, Rejected, Result, Tally
from .core.registry import all_specs, get
from .core.session import Op, Session
from .core.spec import GameConfig, GameSpec, make_config
from .core.step import legal_events, step
from .core.text import Msg, msg, render

__all__ = ["Accepted", "Cancel", "Choose", "ConfigError", "Confirm", "Event", "GameConfig",
           "GameSpec", "Info", "Msg", "Op", "Outcome", "Prompt", "Rejected", "Result", "Session",
           "Tally", "Tap", "all_specs", "get", "legal_events", "make_config", "msg", "render",
           "step"]
