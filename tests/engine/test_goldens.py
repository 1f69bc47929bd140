"""Golden playthrough files: regenerated and compared; `--update-goldens` rewrites them."""
from __future__ import annotations

import pytest

from engine.core.registry import built_in

from .goldens import GOLDEN_DIR, parse_golden, random_golden, render_playthrough

FILES = sorted(GOLDEN_DIR.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden(path, update_goldens):
    game, players, options, events = parse_golden(path.read_text(encoding="utf-8"))
    fresh = render_playthrough(game, players, options, events)
    if update_goldens:
        path.write_text(fresh, encoding="utf-8")
        return
    old = path.read_text(encoding="utf-8").splitlines()
    for n, (a, b) in enumerate(zip(old, fresh.splitlines()), 1):
        assert a == b, f"{path.name} line {n} differs"
    assert old == fresh.splitlines()


@pytest.mark.parametrize("spec", built_in(), ids=lambda s: s.id)
def test_every_game_has_a_golden(spec, update_goldens):
    path = GOLDEN_DIR / f"{spec.id}__random_seed1.txt"
    if update_goldens and not path.exists():
        players = spec.min_players + 1 if spec.max_players > spec.min_players else spec.min_players
        path.write_text(random_golden(spec.id, players, 1), encoding="utf-8")
    assert any(p.name.startswith(f"{spec.id}__") for p in GOLDEN_DIR.glob("*.txt")), \
        f"no golden for {spec.id}: run pytest --update-goldens"
