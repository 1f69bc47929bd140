"""Textes français du mode kiosque : l'écran d'accueil et le menu d'administration."""
from engine.text.fr_typeset import typeset

TEXT = typeset({
    "kiosk.attract": "Vous jouez encore ?",
    "kiosk.resume": "Reprendre la partie",
    "kiosk.new_game": "Nouvelle partie",
    "kiosk.new_confirm": "Finir la partie en\npause ?\nSELECT=oui BACK=non",
    "kiosk.admin": "ADMIN",
    "kiosk.learn": "Apprendre un paquet",
    "kiosk.learn_which": "Paquet à apprendre ?",
    "kiosk.learn_family": "{family} ({deck})",
    "kiosk.brightness": "Luminosité",
    "kiosk.percent": "{percent} %",
    "kiosk.percent_now": "{percent} % (actuel)",
    "kiosk.restart": "Relancer le service",
    "kiosk.shutdown": "Éteindre",
    "kiosk.close": "Fermer",
    "kiosk.restart_confirm": "Redémarrer le\nservice ?\nSELECT=oui BACK=non",
    "kiosk.shutdown_confirm": "Éteindre la table ?\nSELECT=oui BACK=non",
    "kiosk.restarting": "Redémarrage...",
    "kiosk.shutting_down": "Extinction.\nDébranche dans 20 s.",
    "kiosk.failed": "Pas fait :\n{why}",
})
