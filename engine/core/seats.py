"""Seats and per-seat values. A seat is a player's name, never an index."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

V = TypeVar("V")
PerSeat = tuple[tuple[str, V], ...]


def next_seat(seats: tuple[str, ...], seat: str, eligible: Callable[[str], bool] = lambda s: True) -> str:
    """The first seat clockwise after `seat` that is eligible (`seat` itself as a last resort)."""
    start = seats.index(seat)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if eligible(candidate):
            return candidate
    return seat


def clockwise_from(seats: tuple[str, ...], seat: str) -> tuple[str, ...]:
    """All seats in clockwise order, starting at `seat`."""
    start = seats.index(seat)
    return seats[start:] + seats[:start]


def per_seat(seats: tuple[str, ...], value: V) -> PerSeat[V]:
    return tuple((s, value) for s in seats)


def of(table: PerSeat[V], seat: str) -> V:
    for s, v in table:
        if s == seat:
            return v
    raise KeyError(seat)


def with_value(table: PerSeat[V], seat: str, value: V) -> PerSeat[V]:
    """A copy of `table` with `seat` set to `value`."""
    if seat not in (s for s, _ in table):
        raise KeyError(seat)
    return tuple((s, value if s == seat else v) for s, v in table)


def add(table: PerSeat[int], seat: str, delta: int) -> PerSeat[int]:
    return with_value(table, seat, of(table, seat) + delta)
