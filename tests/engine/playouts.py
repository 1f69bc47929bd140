"""Seeded random playouts over any registered game (OpenSpiel's random_sim_test)."""
from __future__ import annotations

import random

import engine
import seeds
from engine import Accepted, Session, legal_events, make_config

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def player_counts(spec) -> list[int]:
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return sorted({low, high})


def new_session(spec, players: int) -> Session:
    return Session(spec, make_config(spec, NAMES[:players], data=default_data(spec)))


def default_data(spec):
    """Game data a game needs to start (Flouk's card file), from the shipped seeds."""
    return seeds.game_data(spec.id, spec.deck)


def random_playout(spec, players: int, seed: int, limit: int | None = None, on_step=None) -> Session:
    """Play random legal events until the game ends (or `limit`); `on_step(session, rng)` per step."""
    rng = random.Random(seed)
    session = new_session(spec, players)
    limit = limit or spec.max_events
    for _ in range(limit):
        if spec.result(session.state) is not None:
            break
        legal = legal_events(spec, session.state)
        assert legal, f"{spec.id}: no legal event in phase {session.state.phase}"
        if on_step:
            on_step(session, rng)
        outcome = session.play(rng.choice(legal))
        assert isinstance(outcome, Accepted)
    return session


def all_games():
    return [spec for spec in engine.all_specs()]
