"""Seeded playouts over any registered game (OpenSpiel's random_sim_test), at random and
driven toward the states random play rarely reaches.

A policy picks the next event among the legal ones. Random play seldom makes the same choice
many times in a row, so it rarely reaches the edges a rule guards: the last chip paid, the
biggest bid, a menu's first or last entry every time. The other policies go there on purpose:
`low` takes a menu's first entry whenever a menu is offered, `high` its last (the all-in, the
largest number), `stubborn` the same answer again for as long as it is taken (passing until
no chip is left). Between menus they play at random.
"""
from __future__ import annotations

import random
from collections.abc import Callable

import seeds
from engine import Accepted, Choose, Event, GameSpec, Session, legal_events, make_config

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
POLICIES = ("random", "low", "high", "stubborn")

Policy = Callable[[list[Event], list[Event], random.Random], Event]   # (legal, played, rng)


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


def at_random(legal: list[Event], played: list[Event], rng: random.Random) -> Event:
    return rng.choice(legal)


def menu_end(index: int) -> Policy:
    """A menu's entry at `index` (0 the first, -1 the last) whenever one is offered."""
    def pick(legal: list[Event], played: list[Event], rng: random.Random) -> Event:
        menu = [event for event in legal if isinstance(event, Choose)]
        return menu[index] if menu else rng.choice(legal)
    return pick


def stubborn(legal: list[Event], played: list[Event], rng: random.Random) -> Event:
    """The last menu answer again while it is taken; else at random."""
    last = next((event for event in reversed(played) if isinstance(event, Choose)), None)
    return last if last in legal else rng.choice(legal)


PICKS: dict[str, Policy] = {"random": at_random, "low": menu_end(0), "high": menu_end(-1),
                            "stubborn": stubborn}


# The legal events of the state last asked: a check at a state asks again what the playout
# just asked of it (the engine is pure: one state object has one answer). Never changed.
_last: tuple[GameSpec | None, object, list[Event]] = (None, None, [])


def legal_now(spec: GameSpec, state) -> list[Event]:
    """legal_events(spec, state), worked out once for the state a playout is at."""
    global _last
    if _last[0] is not spec or _last[1] is not state:
        _last = (spec, state, legal_events(spec, state))
    return _last[2]


def random_playout(spec: GameSpec, players: int, seed: int, limit: int | None = None,
                   on_step: Callable[[Session, random.Random], None] | None = None,
                   policy: str = "random") -> Session:
    """Play legal events chosen by `policy` until the game ends (or `limit`);
    `on_step(session, rng)` before each step."""
    rng = random.Random(seed)
    pick = PICKS[policy]
    session = new_session(spec, players)
    played: list[Event] = []
    for _ in range(limit or spec.max_events):
        if spec.result(session.state) is not None:
            break
        legal = legal_now(spec, session.state)
        if not legal:
            raise Stuck(f"{spec.id}: no legal event in phase {session.state.phase}")
        if on_step:
            on_step(session, rng)
        event = pick(legal, played, rng)
        played.append(event)
        if not isinstance(session.play(event), Accepted):
            raise Stuck(f"{spec.id}: {event}, found legal, was refused")
    return session
