"""The player-facing docs: docs/cards.md and the house-rule tables of docs/rules.md are what
the generator makes of the code today, and every game has its section and its table."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import engine
from engine.core.registry import built_in

ROOT = Path(__file__).resolve().parent.parent


def generator():
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "tools" / "make_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_docs_are_current():
    """Regenerate both files and compare: run `python tools/make_docs.py` after a change."""
    for path, text in generator().wanted().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is out of date"


def test_every_card_id_is_listed():
    cards = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    for spec in built_in():
        missing = [card for card in spec.card_ids() if f"`{card}`" not in cards]
        assert not missing, (spec.id, missing)


def test_every_game_has_its_rules_and_its_house_rules():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for spec in built_in():
        assert f"## {spec.title}" in rules, spec.title
        assert f"<!-- options:{spec.id} -->" in rules, spec.id
        for option in spec.options:
            assert f"| `{option.key}` |" in rules, (spec.id, option.key)


def test_every_house_rule_is_explained():
    tool = generator()
    for spec in built_in():
        _, meaning = tool.rules_parts(spec)
        assert {option.key for option in spec.options} == set(meaning), spec.id


def test_the_rules_page_says_what_the_table_does():
    """The claims of docs/rules.md that the code decides: a card put back soon is one tap, and
    Tamalou's match takes any number of rounds or any total, not only the menu's."""
    from device.config.schema import ReaderConfig

    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert f"put back within {ReaderConfig().debounce_ms / 1000:g} s is still that one tap" in rules
    match = next(o for o in engine.get("tamalou").options if o.key == "match")
    assert [match.parse(text) for text in ("rounds:7", "threshold:33")] == ["rounds:7", "threshold:33"]
    assert "`rounds:N`" in rules and "`threshold:T`" in rules and "any N or T from 1" in rules
    assert "counts again" not in rules and "choose the number of players, then" not in rules


def test_every_reference_the_code_makes_is_in_the_rules():
    """An open question's id (AMB-TA8) and a section of a game's rules (§4.5), wherever the
    code cites one, are listed at the end of docs/rules.md. The drivers' § numbers name their
    datasheets' sections, which the drivers name."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    code = [path for room in ("engine", "device", "tabletop_kit", "tests", "tools")
            for path in (ROOT / room).rglob("*.py") if "hardware" not in path.parts]
    cited: dict[str, str] = {}
    for path in code:
        text = path.read_text(encoding="utf-8")
        for ref in re.findall(r"AMB-[A-Z]+\d+|§\d+(?:\.\d+)*", text):
            cited.setdefault(ref, str(path.relative_to(ROOT)))
    assert len(cited) > 50
    missing = {ref: where for ref, where in cited.items() if f"| {ref} |" not in rules}
    assert not missing
