"""Counted words agree with their count in both languages: "1 clam, 2 clams", "1 partie jouée,
2 parties jouées", French keeping the singular for 0. Every text of every catalog, the engine's
and the device's, is rendered with each of its numbers at 0, 1 and 2."""
from __future__ import annotations

import re
import string

import pytest

from engine.core.text import ONE, catalog, count_of, forms, msg, render

from .test_language import LANGUAGES, samples

# Arguments that carry a number (the others are names, cards, places, words).
NUMBERS = {"n", "k", "m", "i", "total", "pot", "round", "pile", "max", "sum", "known", "size",
           "minutes", "start_tokens", "turn", "base", "pop", "plus", "minus", "copy", "copies",
           "line", "saved", "now", "score", "v", "failed", "warned", "percent", "wins", "pid"}
# Words that may follow a number whatever it is: units, prepositions, verbs, participles that
# English does not inflect, and what follows a number that ranks rather than counts ("Round 2
# over", "line 3 is damaged").
INVARIABLE = {"s", "min", "of", "left", "to", "played", "joined", "tapped", "moved", "over", "done",
              "out", "is", "does", "sur", "de", "devant", "finie", "ont", "faites", "hors",
              "abîmée", "ne", "more", "online", "offline", "playing", "en"}
COUNTED = re.compile(r"\{(\w+)(?::[^}]*)?\} +([a-zà-ÿ][a-zà-ÿ']+)")
# A singular count followed by a plural word: "1 clams", "1 jouées", French "0 palourdes".
WRONG = {"en": re.compile(r"(?<![\d+/.])\b1 (?:more |staff )?[a-z]+s\b"),
         "fr": re.compile(r"(?<![\d+/.])\b[01] (?:[a-zà-ÿ]+ du [a-zà-ÿ]+ )?[a-zà-ÿ]+s\b")}
VERBS = ("is", "has", "does", "was", "hors")
# Plural-looking words that are right after 1: literal instructions, not counts.
RIGHT_AFTER_ONE = {"1 of yours", "1 opponent card", "1 penalty card", "1 of your own cards",
                   "1 opponent's", "1 des tiennes", "1 de tes cartes", "1 of an"}


def fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def numbers_of(language: str, key: str) -> list[str]:
    return sorted({f for form in forms(catalog(language)[key]) for f in fields(form)} & NUMBERS)


def cases():
    for language in LANGUAGES:
        for key in sorted(catalog(language)):
            for number in numbers_of(language, key):
                yield language, key, number


def text_with(language: str, key: str, number: str, count: int) -> str:
    given = {**samples(language, key), **{f: 2 for f in NUMBERS}, number: count}
    template = catalog(language)[key]
    names = {f for form in forms(template) for f in fields(form)}
    return render(msg(key, **{f: given.get(f, "x") for f in names}), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_renders_with_every_count(language):
    wrong = {}
    for key in sorted(catalog(language)):
        for number in numbers_of(language, key):
            for count in (0, 1, 2):
                text = text_with(language, key, number, count).replace("\n", " ")
                found = [m for m in WRONG[language].findall(text)
                         if m.split()[-1] not in VERBS
                         and not any(ok.startswith(m) for ok in RIGHT_AFTER_ONE)]
                if found:
                    wrong[(key, number, count)] = found
    assert not wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_counted_word_has_a_singular_and_a_plural(language):
    """A number followed by a word that agrees with it is a plural text, counted by that number."""
    plain = {}
    for key, template in catalog(language).items():
        counted = count_of(template)
        for form in forms(template):
            for number, word in COUNTED.findall(form):
                if number in NUMBERS and number != counted and word.lower() not in INVARIABLE:
                    plain[key] = f"{{{number}}} {word}"
    assert not plain, plain


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_count_picks_the_form(language):
    plurals = {key: t for key, t in catalog(language).items() if count_of(t) is not None}
    assert plurals
    for key, template in plurals.items():
        number = count_of(template)
        for count in (0, 1, 2):
            form = "one" if ONE[language](count) else "other"
            given = {**samples(language, key), **{f: 2 for f in NUMBERS}, number: count}
            names = {f for f in fields(template[form])}
            expected = template[form].format(**{f: given.get(f, "x") for f in names})
            assert text_with(language, key, number, count) == expected, key


def test_french_keeps_the_singular_for_zero_and_english_does_not():
    assert render(msg("pa.basket_info", name="Ann", n=0), "en") == "Ann: 0 clams"
    assert render(msg("pa.basket_info", name="Ann", n=1), "en") == "Ann: 1 clam"
    assert render(msg("pa.basket_info", name="Ann", n=0), "fr") == "Ann\u00a0: 0 palourde"
    assert render(msg("pa.basket_info", name="Ann", n=2), "fr") == "Ann\u00a0: 2 palourdes"
    assert render(msg("cli.history.stats", game="Flouk", n=1, average="9 min", wins="P1:1"),
                  "fr").startswith("Flouk\u00a0: 1 jouée,")

