"""The page speaks the table's language: its labels, its scripts' words, the games' lines and
the API's refusals come from the catalogs (device/texts/web_*.py) in the language the table
has now, English or French, whole and in UTF-8; a change from the menu reaches the next page."""
from __future__ import annotations

import html
import json
import re

import pytest

from device.texts import say
from device.texts.web_en import TEXT as EN
from device.texts.web_fr import TEXT as FR
from device.web.words import page_words
from tests.device.webpage import ask, joined, serve

LANGUAGES = ("en", "fr")


@pytest.fixture
def page(tmp_path):
    table, web = serve(tmp_path)
    yield table, web
    web.close()


def served(web) -> str:
    status, headers, body = ask(web, "GET", "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    return body.decode("utf-8")


def scripts_words(text: str) -> dict:
    found = re.search(r'<script id="words" type="application/json">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found[1])


def test_both_catalogs_say_every_text_of_the_page():
    assert set(EN) == set(FR)
    assert [key for key in FR if FR[key] == EN[key]] == ["web.title"]     # the product's name
    for key, text in FR.items():
        assert re.findall(r"\{\w+\}", str(text)) == re.findall(r"\{\w+\}", str(EN[key])), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_served_in_the_tables_language(page, language):
    table, web = page
    table.app.language = language
    text = served(web)
    assert f'<html lang="{language}">' in text and "{{" not in text
    for key in ("web.join_title", "web.join_hint", "web.buttons_hint", "web.roster_hint",
                "web.who_starts", "web.on_screen", "web.last_instructions", "web.start"):
        assert html.escape(say(language, key)) in text, key
    other = "fr" if language == "en" else "en"
    assert html.escape(say(other, "web.join_title")) not in text
    assert scripts_words(text) == page_words(language)
    assert "Ã" not in text and "\ufffd" not in text                 # no text mis-encoded


def test_french_reads_with_its_accents_and_spaces(page):
    table, web = page
    table.app.language = "fr"
    text = served(web)
    assert "<h2>À l&#x27;écran</h2>" in text and "Dernières consignes" in text
    assert "Les joueurs du café\u00a0: touche un nom" in text        # the space before ":" holds
    assert scripts_words(text)["web.players_range"] == "{low} à {high} joueurs"


def test_a_language_changed_from_the_menu_reaches_the_next_page_and_the_view(page):
    table, web = page
    cookie = joined(web)
    assert "Join the table" in served(web)
    table.run("press up\npress select")                         # the game select's last line
    assert table.app.language == "fr"
    assert "Rejoindre la table" in served(web)
    view = json.loads(ask(web, "GET", "/api/screen", cookie=cookie)[2])
    assert view["language"] == "fr"                             # the open page reloads itself


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_apis_refusals_are_in_the_tables_words(page, language):
    table, web = page
    table.app.language = language
    status, _, body = ask(web, "POST", "/api/join", {"code": "not it"})
    assert status == 403 and json.loads(body)["error"] == say(language, "web.wrong_code")
    status, _, body = ask(web, "GET", "/api/screen")
    assert status == 401 and json.loads(body)["error"] == say(language, "web.join_first")
    status, _, body = ask(web, "POST", "/api/join", b"{}", kind="text/plain")
    assert status == 415 and json.loads(body)["error"] == say(language, "web.body_type")
    status, _, body = ask(web, "POST", "/api/join", {"cod": "1"})
    assert status == 400 and json.loads(body)["error"] == say(
        language, "web.body_shape", shape='{"code": "..."}')


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_game_is_pitched_in_the_tables_language(page, language):
    table, web = page
    table.app.language = language
    cookie = joined(web)
    games = json.loads(ask(web, "GET", "/api/setup", cookie=cookie)[2])["games"]
    assert games and all(game["pitch"] == say(language, f"web.pitch.{game['id']}")
                         for game in games)
