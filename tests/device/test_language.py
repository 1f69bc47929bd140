"""The table speaks French and English: complete catalogs that fit the screen and the font,
the language chosen from the config, the locale or the menu, and the command line following it."""
from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil
import string

import pytest

import device
import engine  # noqa: F401  (registers every game's texts)
from device.cli import main
from device.cli.parser import cli_language
from device.storage.settings import (
    SETTINGS_FILE,
    remember_language,
    saved_language,
    table_language,
)
from device.texts.locale import resolve_language
from device.ui.font import covers
from device.ui.house_rules import OPTION_COLUMNS, value_name
from device.ui.screen import COLUMNS
from engine.core.text import catalog, forms, msg, render

from .table import SimTable, to_game, too_wide, whole_games

# every module that registers texts
for module in pkgutil.walk_packages(device.__path__, "device."):
    if not module.name.endswith("__main__"):
        importlib.import_module(module.name)

LANGUAGES = ("en", "fr")
# Texts made to flow into a wrapped paragraph, never shown line for line: the fleet's offers
# and its request for a player's card (paged, device/fleet/claim_screen.py), and the reasons a
# saved game was kept aside (inside "ui.kept_aside").
# Palourde's peek reminder too: the play screen wraps it under the prompt, which keeps the
# lines left (device/ui/playing.py), so "Pas celle vue par Alice" is two whole lines.
WRAPPED = {"fleet.offer_deck", "fleet.offer_staff", "ui.journal_damaged", "ui.journal_unreadable",
           "ui.journal_not_one", "ui.journal_unknown_game", "ui.journal_rules", "ui.journal_mismatch",
           "pa.peek_reminder", "fleet.claim_tap"}
# English lines over 21 characters with a five-letter name, known when French came: two
# prompts left to the English texts' owners. The rules word these (PA-12, LA-04); with a
# long name the screen pages them.
ENGLISH_WIDER = {"pa.golden_clam", "la.pairs_with"}
GAMES = whole_games()


def screen_keys(language: str) -> list[str]:
    """Every text the display shows (the command line's own texts go to a terminal, the
    table's page's to a phone's browser)."""
    return sorted(key for key in catalog(language) if not key.startswith(("cli.", "web.")))


def longest(language: str, keys, **args) -> str:
    return max((render(msg(key, **args), language) for key in keys), key=len)


def samples(language: str, key: str) -> dict[str, str]:
    """Representative arguments: five-letter names, two-digit numbers, the longest card names."""
    given, cards = language_samples(language)
    card = next((name for prefix, name in cards.items() if key.startswith(prefix)), "clam#10")
    return {**given, "card": card, "top": card}


@functools.cache
def language_samples(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """The arguments but the card, and the card by the text's prefix: worked out once a
    language, not once a text (the built-in games' texts are registered at import)."""
    named = [k for k in catalog(language)]
    rank = longest(language, [k for k in named if k.startswith("tm.rank.")])
    suit = longest(language, [k for k in named if k.startswith("tm.suit.")])
    people = longest(language, [k for k in named if k.startswith("fl.people.")])
    kinds = longest(language, [f"pa.kind.{k}" for k in ("clam", "rake", "crab", "shrimp", "bird",
                                                       "beach", "shell")])
    cards = {"tm.": render(msg("tm.card", rank=rank, suit=suit), language),
             "fl.": render(msg("fl.card.chief", people=people), language), "learn.": kinds}
    given = {"name": "Alice", "target": "Alice", "victim": "Alice", "caller": "Alice",
             "names": "Alice, Bob", "seats": "Alice, Bob",
             "a": kinds, "b": kinds, "food": kinds, "people": people, "rank": rank, "suit": suit,
             "step": longest(language, [k for k in named if k.startswith("fl.step.")]),
             "to": longest(language, [k for k in named if k.startswith("fl.place.")], name="Alice"),
             "hint": longest(language, ["at.hint.safe", "at.hint.all_fail"]), "deck": "cafe1",
             "option": longest(language, [k for k in named if k.startswith(("tm.action.",
                                                                             "la.opt."))])}
    return given, cards


def rendered(language: str, key: str) -> str:
    """Every form of the text (singular and plural where it counts), one after the other."""
    given = samples(language, key)
    texts = []
    for template in forms(catalog(language)[key]):
        fields = {field for _, field, _, _ in string.Formatter().parse(template) if field}
        texts.append(template.format(**{field: given.get(field, "10") for field in fields}))
    return "\n".join(texts)


def test_every_key_is_in_both_languages():
    english, french = set(catalog("en")), set(catalog("fr"))
    assert not english - french, f"no French for {sorted(english - french)}"
    assert not french - english, f"no English for {sorted(french - english)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_text_fits_21_columns(language):
    allowed = WRAPPED | (ENGLISH_WIDER if language == "en" else set())
    wide = {key: line for key in screen_keys(language) if key not in allowed
            for line in rendered(language, key).split("\n") if len(line) > COLUMNS}
    assert not wide


def test_english_overflows_are_still_there():
    """The allowance above shrinks as the English texts are fixed: drop a key once it fits."""
    fixed = {key for key in ENGLISH_WIDER
             if all(len(line) <= COLUMNS for line in rendered("en", key).split("\n"))}
    assert not fixed


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_has_a_glyph(language):
    missing = {char for text in catalog(language).values() for form in forms(text) for char in form
               if char != "\n" and not covers(char)}
    assert not missing


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_french_fits_the_display(tmp_path, game):
    script = GAMES[game]
    table = SimTable(tmp_path, "fr").run(script.SETUP + script.PLAY + "press back")  # last words read
    assert not {line for screen in table.screens for line in too_wide(screen)}
    assert any(screen.header == "FIN" for screen in table.screens)


def test_house_rules_have_names_and_values_in_each_language():
    for spec in engine.all_specs():
        for option in spec.options:
            for language in LANGUAGES:
                name = render(msg(f"opt.{option.key}"), language)
                assert name != f"opt.{option.key}"
                for value in option.menu_values():
                    shown = render(value_name(value), language)
                    assert len(name) + 1 + len(shown) <= OPTION_COLUMNS, (language, name, shown)


# ---- choosing the language -------------------------------------------------------------------

@pytest.mark.parametrize("config,environ,expected", [
    ("fr", {"LANG": "en_GB.UTF-8"}, "fr"),
    ("en", {"LANG": "fr_FR.UTF-8"}, "en"),
    (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
    (None, {"LANG": "fr_CA"}, "fr"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    (None, {"LC_MESSAGES": "fr_BE.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    (None, {"LC_ALL": "", "LANG": "fr_FR"}, "fr"),
    (None, {}, "en"),
])
def test_config_then_locale_then_english(config, environ, expected):
    assert resolve_language(config, environ) == expected


def test_the_staff_choice_is_remembered_and_wins(tmp_path):
    assert saved_language(tmp_path) is None
    remember_language(tmp_path, "fr")
    assert table_language(tmp_path, "en", {"LANG": "en_US"}) == "fr"
    (tmp_path / SETTINGS_FILE).write_text("language = [", encoding="utf-8")
    assert table_language(tmp_path, None, {"LANG": "fr_FR"}) == "fr"       # a broken file is ignored
    assert table_language(tmp_path, None, {}) == "en"


def test_game_select_switches_at_once_and_a_restart_keeps_it(tmp_path):
    table = SimTable(tmp_path).run("press up")
    assert table.screen.lines[table.screen.highlight] == "Language: English"
    table.run("press select")
    assert table.app.language == "fr"
    assert table.screen.lines[table.screen.highlight] == "Langue\u00a0: français"
    assert table.screen.lines[-1] == "Ou passe une carte"
    assert table_language(tmp_path, None, {}) == "fr"


def test_game_menu_switches_mid_game(tmp_path):
    table = SimTable(tmp_path).start("palourde", "Ann,Bob")
    assert table.screen.lines[:2] == ("Ann: flip 2 cards,", "tap each")
    table.run("hold select\npress up\npress up\npress select\npress back")
    assert table.app.language == "fr"
    assert table.screen.lines[:2] == ("Ann\u00a0: retourne", "2 cartes, passe-les")


def test_french_house_rules(tmp_path):
    table = SimTable(tmp_path, "fr").run(to_game("tribord") + "press down")
    assert table.screen.lines[:3] == ("Variantes", "Lancer la partie", f"{'Jetons départ':<17}10")


# ---- the command line --------------------------------------------------------------------------

SCRIPT = "game palourde\nplayers Ann Bob\ntap clam#1\ntap clam#2\ntap clam#1\n"


def replay(tmp_path, capsys, *args) -> str:
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    assert main(["replay", str(path), *args]) == 0
    return capsys.readouterr().out


def test_replay_follows_the_locale_and_the_flag(tmp_path, capsys, monkeypatch):
    assert "Clam + Clam!" in replay(tmp_path, capsys)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert "Palourde + Palourde\u00a0!" in replay(tmp_path, capsys)
    assert "Clam + Clam!" in replay(tmp_path, capsys, "--language", "en")


def test_json_keeps_ids_and_translates_only_texts(tmp_path, capsys):
    english = json.loads(replay(tmp_path, capsys, "--json"))
    french = json.loads(replay(tmp_path, capsys, "--json", "--language=fr"))
    assert french["rejected"] == [{"line": 5, "code": "E_OUT_OF_PLAY", "message": "Carte hors jeu"}]
    assert french["prompt"]["text"] == "Bob\u00a0: retourne\n2 cartes, passe-les"
    for data in (english, french):
        del data["rejected"][0]["message"], data["prompt"]["text"]
    assert english == french


def test_help_in_french(capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("utilisation\u00a0: tabletop replay")
    assert "affiche un seul objet JSON" in out and "affiche cette aide et quitte" in out


def test_an_unknown_language_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--language", "de", "status"])
    assert "invalid choice" in capsys.readouterr().err


def test_the_config_file_sets_the_command_line_language(tmp_path):
    config = tmp_path / "tabletop.toml"
    config.write_text('language = "fr"\n', encoding="utf-8")
    assert cli_language(["run", "--config", str(config), "--sim"], {}) == \
        ("fr", ["run", "--config", str(config), "--sim"])
    assert cli_language(["--language", "en", "run", "--config", str(config)], {})[0] == "en"


def test_the_config_speaks_even_when_it_has_problems_of_its_own(tmp_path):
    """Only its language key is read for the words: the command reports the rest in them."""
    config = tmp_path / "tabletop.toml"
    config.write_text('language = "fr"\nbogus = 1\n', encoding="utf-8")
    assert cli_language(["run", "--config", str(config)], {})[0] == "fr"
    config.write_text('language = "de"\n', encoding="utf-8")
    assert cli_language(["run", "--config", str(config)], {"LANG": "fr_FR.UTF-8"})[0] == "fr"
    config.write_text('language = [\n', encoding="utf-8")
    assert cli_language(["run", "--config", str(config)], {})[0] == "en"


def test_a_config_given_as_a_pipe_is_left_whole_for_its_command():
    """`--config <(...)`: the language is not looked for in it, so the command reads it all."""
    read, write = os.pipe()
    text = b'language = "fr"\n[fleet]\nenabled = true\n'
    os.write(write, text)
    os.close(write)
    try:
        assert cli_language(["fleet", "shared", "--config", f"/dev/fd/{read}"], {})[0] == "en"
        assert os.read(read, 1024) == text
    finally:
        os.close(read)
