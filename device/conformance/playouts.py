"""Seeded random playouts over any registered game (OpenSpiel's random_sim_test)."""
from __future__ import annotations

import random
from collections.abc import Callable

import seeds
from engine import Accepted, GameSpec, Session, legal_events, make_config

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def player_counts(spec: GameSpec) -> list[int]:
    """The fewest and the most players the game takes with its default house rules."""
    low, high = spec.player_range(tuple((o.key, o.default) for o in spec.options))
    return sorted({low, min(high, len(NAMES))})


def new_session(spec: GameSpec, players: int) -> Session:
    return Session(spec, make_config(spec, NAMES[:players], data=default_data(spec)))


def default_data(spec: GameSpec):
    """Game data a game needs to start (Flouk's card file), from its deck's manifest."""
    return seeds.game_data(spec.id, spec.deck)


class Stuck(AssertionError):
    """A playout found no legal event, or an event it chose as legal was refused."""


def random_playout(spec: GameSpec, players: int, seed: int, limit: int | None = None,
                   on_step: Callable[[Session, random.Random], None] | None = None) -> Session:
    """Play random legal events until the game ends (or `limit`); `on_step(session, rng)`
    before each step."""
    rng = random.Random(seed)
    session = new_session(spec, players)
    for _ in range(limit or spec.max_events):
        if spec.result(session.state) is not None:
            break
        legal = legal_events(spec, session.state)
        if not legal:
            raise Stuck(f"{spec.id}: no legal event in phase {session.state.phase}")
        if on_step:
            on_step(session, rng)
        event = rng.choice(legal)
        if not isinstance(session.play(event), Accepted):
            raise Stuck(f"{spec.id}: {event}, found legal, was refused")
    return session
