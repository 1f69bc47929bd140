"""Component manifests: every deck loads and matches the rules' counts; a wrong count is named."""
from __future__ import annotations

import pytest

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
