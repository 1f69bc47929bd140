"""A part of a language's catalog (the device's command-line texts, its screens'...) is read the
first time one of its texts is asked for, once, and then says what it would have said read at
the start: its texts, the English fallback, the clash of a key given again, the whole listing."""
from __future__ import annotations

import pytest

from engine.core import catalog


@pytest.fixture
def parts(monkeypatch):
    """The catalogs as they are, with room for parts of a test's own that leave no trace."""
    monkeypatch.setattr(catalog, "_CATALOGS", {language: dict(texts)
                                               for language, texts in catalog._CATALOGS.items()})
    monkeypatch.setattr(catalog, "_PARTS", {})
    monkeypatch.setattr(catalog, "_FILLERS", [])
    monkeypatch.setattr(catalog, "_STRICT", False)      # the fallbacks a table has (not the tests')
    read: list[str] = []

    def add(language: str, texts: dict[str, catalog.Template]) -> None:
        def load() -> None:
            read.append(language)
            catalog.add_catalog(language, texts)
        catalog.add_part(language, sorted({key.split(".")[0] + "." for key in texts}), load)
    return add, read


def test_a_part_is_read_at_its_first_text_once(parts):
    add, read = parts
    add("en", {"zz.hello": "Hello {name}", "zy.count": catalog.plural("{n} clam", "{n} clams")})
    assert read == []
    assert catalog.words("zz.hello", [("name", "Ann")]) == "Hello Ann"
    assert catalog.words("zy.count", [("n", 2)]) == "2 clams"         # its other prefix: same part
    assert read == ["en"]


def test_a_language_s_part_falls_back_to_english_s(parts):
    add, read = parts
    add("en", {"zz.only_english": "In English"})
    add("fr", {"zz.both": "Les deux"})
    assert catalog.words("zz.only_english", [], "fr") == "In English"
    assert sorted(read) == ["en", "fr"]


def test_a_part_not_read_yet_still_refuses_a_key_given_another_text(parts):
    add, read = parts
    add("en", {"zz.taken": "Mine"})
    assert catalog.clashes("en", {"zz.taken": "Yours", "zz.free": "Free"}) == ["zz.taken"]
    assert catalog.clashes("en", {"zz.taken": "Mine"}) == []
    with pytest.raises(ValueError, match="zz.taken"):
        catalog.add_catalog("en", {"zz.taken": "Yours"})


def test_a_catalog_added_before_its_part_is_read_is_checked_as_the_part_is_read(parts):
    add, read = parts
    add("en", {"zz.taken": "Mine", "zz.other": "Other"})
    catalog.add_catalog("en", {"zz.taken": "Yours"})
    with pytest.raises(ValueError, match="zz.taken"):
        catalog.words("zz.other", [])


def test_the_catalog_of_a_language_lists_its_parts_and_finds_each_text(parts):
    add, read = parts
    add("en", {"zz.a": "A", "zz.b": "B"})
    add("fr", {"zz.a": "À"})
    english = catalog.catalog("en")
    assert english["zz.b"] == "B" and read == ["en"]
    assert {"zz.a", "zz.b"} <= set(english) and read == ["en", "fr"]     # listing reads them all
    assert catalog.catalog("fr")["zz.a"] == "À"


def test_a_key_no_part_holds_is_the_key(parts):
    add, read = parts
    add("en", {"zz.a": "A"})
    assert catalog.words("zq.nothing", []) == "zq.nothing"
    assert read == ["en"]                 # a missing key reads every part before giving up
