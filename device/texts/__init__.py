"""The device's own texts, English and French: its screens, the kiosk's, the fleet's, the command
line's. Importing this package registers every catalog with the engine's texts."""
from . import cli_en, fleet_en, kiosk_en, ui_en  # noqa: F401
