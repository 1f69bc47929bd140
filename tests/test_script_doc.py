"""docs/scripts.md is what tools/make_script_doc.py makes of the code today: the input language
of engine.core.script, and the choice ids of each game's prompts."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.core.registry import built_in
from engine.core.script import WORDS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scripts.md"


def generator():
    spec = importlib.util.spec_from_file_location("make_script_doc", ROOT / "tools" / "make_script_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_doc_is_current():
    """Run `python tools/make_script_doc.py` after a change to the language or a prompt."""
    assert DOC.read_text(encoding="utf-8") == generator().wanted(), "docs/scripts.md is out of date"


def test_every_word_and_game_is_in_the_doc():
    text = DOC.read_text(encoding="utf-8")
    for verb in WORDS:
        assert f"| `{verb}" in text, verb
    for spec in built_in():
        assert f"(`game {spec.id}`)" in text, spec.id


def test_the_prompts_that_ask_a_choice_are_listed_with_their_ids():
    text = DOC.read_text(encoding="utf-8")
    assert "| `learn` | " in text and "`0..99`" in text               # a Flouk white number
    assert "| `turn` | Ann: your move" in text and "`accuse`" in text   # L'Auberge
    assert "`hand:NAME`" in text and "`no_steal`" in text
