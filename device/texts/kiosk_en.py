"""English texts of kiosk mode: the attract screen and the staff's admin menu."""

TEXT = {
    "kiosk.attract": "Still playing?",
    "kiosk.resume": "Resume game",
    "kiosk.new_game": "New game",
    "kiosk.new_confirm": "End the paused game?\nSELECT=yes BACK=no",
    "kiosk.admin": "ADMIN",
    "kiosk.learn": "Learn a deck",
    "kiosk.learn_which": "Learn which deck?",
    "kiosk.learn_family": "{family} ({deck})",
    "kiosk.brightness": "Brightness",
    "kiosk.percent": "{percent}%",
    "kiosk.percent_now": "{percent}% (now)",
    "kiosk.restart": "Restart service",
    "kiosk.shutdown": "Shut down",
    "kiosk.close": "Close",
    "kiosk.restart_confirm": "Restart the service?\nSELECT=yes BACK=no",
    "kiosk.shutdown_confirm": "Shut the table down?\nSELECT=yes BACK=no",
    "kiosk.restarting": "Restarting...",
    "kiosk.shutting_down": "Shutting down.\nUnplug in 20 s.",
    "kiosk.failed": "Not done:\n{why}",
}
