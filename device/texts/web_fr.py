"""Textes français de la page de la table (device/web/): libellés, boutons, préparation, le jeu
en une ligne, les refus de son API."""
from engine.core.catalog import plural
from engine.text.fr_typeset import typeset

TEXT = typeset({
    "web.title": "Tabletop Companion",
    "web.join_title": "Rejoindre la table",
    "web.join_hint": "Tape le code qu'affiche l'écran de la table.",
    "web.code_label": "code pour rejoindre",
    "web.join": "Rejoindre",
    "web.screen_alt": "l'écran de la table",
    "web.buttons_hint": "Maintiens BACK pour annuler, SELECT pour le menu. Les cartes se "
                        "passent sur le lecteur.",
    "web.game": "Jeu",
    "web.house_rules": "Variantes",
    "web.players": "Joueurs",
    "web.name_label": "le nom d'un joueur",
    "web.name_placeholder": "un nom",
    "web.add": "Ajouter",
    "web.roster_hint": "Les joueurs du café : touche un nom pour lui donner une place.",
    "web.who_starts": "Qui commence ?",
    "web.start": "Lancer la partie",
    "web.table_asks": "La table demande",
    "web.on_screen": "À l'écran",
    "web.last_instructions": "Dernières consignes",
    "web.players_range": "{low} à {high} joueurs",
    "web.seat_range": "({low} à {high})",
    "web.seat_up": "{name} monte",
    "web.seat_down": "{name} descend",
    "web.seat_out": "{name} se lève",
    "web.not_added": "pas ajouté",
    "web.not_taken": "pas pris",
    "web.no_answer": "la table ne répond pas",
    "web.join_first": "rejoins d'abord : le code est sur l'écran de la table",
    "web.too_many_codes": "trop de codes faux : attends une minute",
    "web.wrong_code": "code faux : l'écran de la table le montre",
    "web.no_frame": "pas encore d'image",
    "web.not_ready": "la table n'est pas prête",
    "web.body_type": "le corps est du JSON (Content-Type: application/json)",
    "web.body_size": plural("un corps fait au plus {n} octet", "un corps fait au plus {n} octets"),
    "web.body_slow": "le corps a mis trop de temps",
    "web.body_not_json": "le corps n'est pas du JSON",
    "web.body_shape": "le corps est {shape}",
    "web.pitch.palourde": "Retourne deux cartes Plage par tour, fais des paires de palourdes : "
                          "le plus de palourdes prend la Palourde d'or.",
    "web.pitch.auberge": "Attaque, défie ou accuse les autres pirates : le dernier pirate en "
                         "jeu gagne.",
    "web.pitch.tribord": "Pioche ou bloque les cartes du centre, des jetons en jeu : le plus "
                         "riche gagne.",
    "web.pitch.tamalou": "Échange et défausse tes quatre cartes cachées : annonce à 5 points "
                         "ou moins pour gagner.",
    "web.pitch.flouk": "Révélez ensemble, donnez et gardez : le plus grand village gagne.",
})
