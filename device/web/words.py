"""The page in the table's language: its HTML with every label put in (html-escaped) and the
words its scripts say, as JSON in the page, from the catalogs (device/texts/web_*.py); and
the API's refusals in the same words. The language is the table's at each request, so a
change from the menu reaches the next page served (the page reloads itself when the view
says another language)."""
from __future__ import annotations

import html
import json
import re
from functools import lru_cache

from engine.core.catalog import catalog, words

PLACE = re.compile(r"\{\{([\w.]+)\}\}")          # {{web.key}}, {{lang}}, {{words}} in index.html


def say(language: str, key: str, **args: object) -> str:
    return words(key, args.items(), language)


def page_words(language: str) -> dict[str, str]:
    """Every text of the page's catalog in `language`, unfilled: the scripts fill {name}."""
    return {key: template for key, template in catalog(language).items()
            if key.startswith("web.") and isinstance(template, str)}


@lru_cache(maxsize=8)
def page(template: bytes, language: str) -> bytes:
    """index.html in `language`: its {{web.*}} labels, its language, its scripts' words."""
    texts = page_words(language)
    script = json.dumps(texts, ensure_ascii=False).replace("<", "\\u003c")

    def fill(found: re.Match) -> str:
        name = found[1]
        if name == "lang":
            return language
        if name == "words":
            return script
        return html.escape(say(language, name))
    return PLACE.sub(fill, template.decode("utf-8")).encode("utf-8")
