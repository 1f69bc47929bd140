"""Component manifests: every deck loads and matches the rules' counts; a wrong count is named."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
import seeds

DECKS = sorted({spec.deck for spec in engine.all_specs()})


@pytest.mark.parametrize("deck", DECKS)
def test_every_registered_deck_has_a_matching_manifest(deck):
    manifest = seeds.load(deck)
    for spec in engine.all_specs():
        if spec.deck == deck:
            for kind, copies in spec.components:
                assert manifest.counts()[kind] == copies


def test_wrong_count_names_kind_and_both_numbers():
    text = seeds.read_text("palourde").replace("copies = 20", "copies = 19")
    with pytest.raises(seeds.ManifestError, match=r"kind 'clam' has 19 cards, Palourde needs 20"):
        seeds.load("palourde", text)


def test_missing_kind_is_an_error():
    text = seeds.read_text("palourde").replace("[kinds.rake]\ncopies = 4", "[kinds.rakes]\ncopies = 4")
    with pytest.raises(seeds.ManifestError, match="'rake' has 0 cards"):
        seeds.load("palourde", text)


def test_broken_toml_is_a_manifest_error():
    with pytest.raises(seeds.ManifestError, match="palourde/deck.toml"):
        seeds.load("palourde", "[kinds.clam\n")


def test_unknown_deck():
    with pytest.raises(seeds.ManifestError, match="no deck named"):
        seeds.read_text("poker")


def test_each_parse_is_the_callers_own_to_change():
    """A manifest's text is parsed once (it is cached): what a caller is given is a copy, and
    changing it changes neither the next caller's nor the shipped manifest's."""
    text = seeds.read_text("flouk")
    first = seeds.parse("flouk", text)
    card = next(iter(first.cards))
    first.cards[card]["type"] = "changed"
    kept = dict(first.cards)
    first.cards.clear()
    again = seeds.parse("flouk", text)
    assert again.cards[card]["type"] != "changed" and again.cards.keys() == kept.keys()
    assert again == seeds.parse("flouk", seeds.read_text("flouk"))


TOML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.dates(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(TOML_VALUES)
def test_a_copy_of_toml_data_is_equal_and_shares_no_table_or_array(value):
    copied = seeds._copied(value)
    assert copied == copy.deepcopy(value)

    def containers(data) -> list:
        if isinstance(data, dict):
            return [data] + [c for item in data.values() for c in containers(item)]
        if isinstance(data, list):
            return [data] + [c for item in data for c in containers(item)]
        return []
    assert not {id(c) for c in containers(value)} & {id(c) for c in containers(copied)}
