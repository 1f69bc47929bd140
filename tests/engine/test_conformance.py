"""Conformance suite over this project's games: the checks `tabletop check-game` runs
(device.conformance), on each player count and several seeds."""
from __future__ import annotations

import random

import pytest

from device.conformance import check_metadata, check_playout, check_texts
from device.conformance.checks import foreign
from device.conformance.playouts import PICKS, player_counts
from engine.core.events import Choose, Confirm, Tap
from engine.core.registry import built_in, decks_of

SEEDS = range(3)
GAMES = built_in()            # this project's games: check-game runs the same checks on others
CASES = [(spec, n, seed) for spec in GAMES for n in player_counts(spec) for seed in SEEDS]
IDS = [f"{spec.id}-{n}p-seed{seed}" for spec, n, seed in CASES]


@pytest.mark.parametrize("spec,players,seed", CASES, ids=IDS)
def test_random_playout(spec, players, seed):
    check_playout(spec, players, seed)


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: s.id)
def test_spec_metadata(spec):
    check_metadata(spec)


@pytest.mark.parametrize("spec,players", [(spec, n) for spec in GAMES for n in player_counts(spec)],
                         ids=lambda v: getattr(v, "id", f"{v}p"))
def test_every_text_the_table_is_shown_is_written_in_each_language(spec, players):
    check_texts(spec, players, 0)


def test_every_deck_has_a_foreign_card():
    for deck in {spec.deck for spec in GAMES}:
        assert deck not in decks_of(foreign(deck))


def test_the_edge_policies_pick_a_menu_s_ends_and_the_same_answer_again():
    """check-game's playouts toward the edges: a menu's first entry, its last, or the last
    answer again while it is offered; between menus, at random."""
    rng = random.Random(0)
    menu = [Tap("a"), Choose("take"), Choose("pass"), Confirm()]
    assert PICKS["low"](menu, [], rng) == Choose("take")
    assert PICKS["high"](menu, [], rng) == Choose("pass")
    assert PICKS["stubborn"](menu, [Choose("pass"), Tap("a")], rng) == Choose("pass")
    assert PICKS["stubborn"]([Tap("a"), Choose("take")], [Choose("pass")], rng) in (Tap("a"), Choose("take"))
    assert PICKS["high"]([Tap("a")], [], rng) == Tap("a")
