"""The table's configuration: its keys (schema), reading and checking a file (loading), what is
wrong with one (problems), and the GPIOs it claims (pins).

Each name below is imported when first used (PEP 562): a module that needs one small part
(problems' one_line, say) must not load the whole schema and the hardware's pin maps.
"""
# ruff: noqa: F401  (the names imported for the type checker are the package's, not its own)
from __future__ import annotations

from engine.core.lazy import lazy_names

TYPE_CHECKING = False               # as typing's, which costs every command's start-up to import
if TYPE_CHECKING:                   # the names below, for the type checker
    from device.paths import config_path

    from .loading import config_for_run, example_config, load_config, parse_config
    from .problems import ConfigFileError, Problem
    from .schema import (
        LANGUAGES,
        SECTIONS,
        ButtonsConfig,
        Config,
        DisplayConfig,
        FeedbackConfig,
        FleetConfig,
        HistoryConfig,
        KioskConfig,
        ReaderConfig,
        TimeWindow,
    )

# name -> the module that defines it
_HOMES = {
    **dict.fromkeys(("config_for_run", "example_config", "load_config", "parse_config"), ".loading"),
    "config_path": "device.paths",
    **dict.fromkeys(("ConfigFileError", "Problem"), ".problems"),
    **dict.fromkeys(("LANGUAGES", "SECTIONS", "ButtonsConfig", "Config", "DisplayConfig",
                     "FeedbackConfig", "FleetConfig", "HistoryConfig", "KioskConfig",
                     "ReaderConfig", "TimeWindow"), ".schema"),
}

__all__ = sorted(_HOMES)

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
