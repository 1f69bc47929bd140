"""The table's configuration: its keys (schema), reading and checking a file (loading), what is
wrong with one (problems), and the GPIOs it claims (pins)."""
from .loading import config_for_run, config_path, example_config, load_config, parse_config
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

__all__ = ["LANGUAGES", "SECTIONS", "ButtonsConfig", "Config", "ConfigFileError", "DisplayConfig",
           "FeedbackConfig", "FleetConfig", "HistoryConfig", "KioskConfig", "Problem",
           "ReaderConfig", "TimeWindow", "config_for_run", "config_path", "example_config", "load_config",
           "parse_config"]
