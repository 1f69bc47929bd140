"""The café's learned Flouk details (device/storage/card_data.py): kept, shared, checked."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
import seeds
from device.cli import main
from device.storage.card_data import (
    LearnedCards,
    forget_details,
    game_data,
    learned_details,
    learned_file,
    merge_details,
)
from engine import Choose, Confirm, Tap

from .table import SimTable

SPEC = engine.get("flouk")


def test_merge_keeps_good_details_and_names_each_bad_one(tmp_path):
    found = merge_details(tmp_path, "flouk", {
        "action#3": {"people": "bloup", "white": 7}, "chief_faar#2": {"white": 12},
        "action#4": {"people": "martian"}, "mouta#1": {"white": 2}, "chief_faar#1": {"people": "faar"},
        "action#5": {"white": 100}, "action#99": {"white": 1}, "action#6": "bloup"})
    assert learned_details(tmp_path, "flouk") == {"action#3": {"people": "bloup", "white": 7},
                                                  "chief_faar#2": {"white": 12}}
    assert len(found) == 6 and any(line.startswith("action#4: people:") for line in found)


def test_a_detail_this_table_knows_is_not_overridden(tmp_path):
    merge_details(tmp_path, "flouk", {"action#3": {"white": 7}})
    found = merge_details(tmp_path, "flouk", {"action#3": {"white": 9, "people": "faar"}})
    assert found == ["action#3: white: this table has 7, not 9"]
    assert learned_details(tmp_path, "flouk") == {"action#3": {"white": 7, "people": "faar"}}


def test_learned_details_fill_the_unknowns_of_the_next_game(tmp_path):
    merge_details(tmp_path, "flouk", {"action#3": {"people": "bloup", "white": 7}})
    data = game_data(SPEC, tmp_path)
    assert data["cards"]["action#3"] == {"type": "action", "people": "bloup", "white": 7,
                                         "effect": {"mode": "manual"}}
    forget_details(tmp_path, "flouk", {"action#3": {"white": 7}})
    assert learned_details(tmp_path, "flouk") == {"action#3": {"people": "bloup"}}


def test_a_typed_card_file_wins_over_a_learned_detail(tmp_path):
    text = seeds.read_text("flouk").replace(
        '[cards."action#3"]\ntype = "action"\npeople = "unknown"',
        '[cards."action#3"]\ntype = "action"\npeople = "napil"')
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "flouk.toml").write_text(text, encoding="utf-8")
    merge_details(tmp_path, "flouk", {"action#3": {"people": "bloup"}})
    assert game_data(SPEC, tmp_path)["cards"]["action#3"]["people"] == "napil"


@settings(max_examples=40, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=12), inner, max_size=3), max_leaves=8))
def test_a_hostile_file_or_import_never_breaks_the_table(tmp_path_factory, junk):
    state_dir = tmp_path_factory.mktemp("learned")
    learned_file(state_dir, "flouk").parent.mkdir(parents=True, exist_ok=True)
    learned_file(state_dir, "flouk").write_text(json.dumps(junk), encoding="utf-8")
    assert isinstance(learned_details(state_dir, "flouk"), dict)
    assert isinstance(merge_details(state_dir, "flouk", junk), list)
    assert game_data(SPEC, state_dir) is not None          # still a game to start


def test_the_table_keeps_an_answer_at_once_and_an_undo_takes_it_back(tmp_path):
    table = SimTable(tmp_path)
    table.app.attach(LearnedCards(tmp_path))      # as device/assembly.py assembles a table
    table.start("flouk")
    for event in (Confirm(), Tap("mouta#1"), Tap("faar#1"), Tap("action#7"), Choose("mouta")):
        table.app.play(event)
    assert learned_details(tmp_path, "flouk") == {"action#7": {"people": "mouta"}}
    table.app.undo()
    assert learned_details(tmp_path, "flouk") == {}
    table.app.play(Choose("faar"))
    assert learned_details(tmp_path, "flouk") == {"action#7": {"people": "faar"}}


def cards_command(*words: str, capsys) -> tuple[int, str, str]:
    code = main(["cards", *words])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_what_one_table_learned_is_exported_and_imported_at_another(tmp_path, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    merge_details(first, "flouk", {"action#3": {"people": "bloup", "white": 7}})
    code, exported, _ = cards_command("export", "--state-dir", str(first), capsys=capsys)
    assert code == 0 and json.loads(exported) == {"action#3": {"people": "bloup", "white": 7}}
    shared = tmp_path / "learned.json"
    shared.write_text(exported)
    assert cards_command("import", str(shared), "--state-dir", str(second), capsys=capsys)[0] == 0
    assert learned_details(second, "flouk") == learned_details(first, "flouk")
    _, shown, _ = cards_command("show", "--state-dir", str(second), capsys=capsys)
    assert "(learned)" in next(line for line in shown.splitlines() if line.startswith("action#3"))


@pytest.mark.parametrize("text", ["not json", "[" * 5000 + "]" * 5000, '{"action#3": {"white": "x"}}'])
def test_a_bad_file_of_learned_details_changes_nothing(tmp_path, capsys, text):
    merge_details(tmp_path, "flouk", {"action#3": {"white": 7}})
    before = learned_file(tmp_path, "flouk").read_bytes()
    shared = tmp_path / "learned.json"
    shared.write_text(text)
    code, out, err = cards_command("import", str(shared), "--state-dir", str(tmp_path), capsys=capsys)
    assert code in (0, 2) and "Traceback" not in out + err
    assert len((out + err).strip().splitlines()) <= 2
    assert learned_file(tmp_path, "flouk").read_bytes() == before
