"""The kit's `replace` means what dataclasses.replace means, on every kind of record."""
from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from device.conformance.playouts import new_session, player_counts
from engine.core.records import _replace as replace
from engine.core.registry import built_in


@pytest.mark.parametrize("spec", built_in(), ids=lambda s: s.id)
def test_a_game_s_state_is_copied_as_the_standard_replace_copies_it(spec):
    state = new_session(spec, player_counts(spec)[-1]).state
    for name in (f.name for f in dataclasses.fields(state)):
        value = (getattr(state, name),)          # a value no field holds: compared, never read
        ours, theirs = replace(state, **{name: value}), dataclasses.replace(state, **{name: value})
        assert ours == theirs and type(ours) is type(theirs) and getattr(ours, name) is value
        assert hash(ours) == hash(theirs)
    assert replace(state) == state and replace(state) is not state
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(state, seq=1).seq = 2


@dataclass(frozen=True, slots=True)
class Slots:
    a: int
    b: tuple[int, ...] = ()


class Sub(Slots):
    """Not a dataclass itself: its base's fields and __init__."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Checked:
    a: int

    def __post_init__(self):
        if self.a < 0:
            raise ValueError("a is negative")


@dataclass(frozen=True)
class Plain:
    a: int
    b: list[int] = field(default_factory=list)


@dataclass
class Mutable:
    seen: list[str]
    a: int = 0

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name != "seen":
            self.seen.append(name)


@dataclass(frozen=True)
class Derived:
    a: int
    twice: int = field(init=False)
    scale: InitVar[int] = 2

    def __post_init__(self, scale):
        object.__setattr__(self, "twice", self.a * scale)


@dataclass(frozen=True, slots=True)
class Own:
    a: int

    def __init__(self, a):
        object.__setattr__(self, "a", a * 10)


def test_every_kind_of_record_gives_what_the_standard_gives():
    for record, changes in [(Slots(1, (2,)), {"b": (3,)}), (Slots(1), {}), (Plain(1, [2]), {"a": 5}),
                            (Derived(3), {"a": 4}), (Derived(3, 5), {"a": 4, "scale": 3}),
                            (Own(1), {"a": 2}), (Sub(1, (2,)), {"a": 3})]:
        ours, theirs = replace(record, **changes), dataclasses.replace(record, **changes)
        assert ours == theirs and type(ours) is type(theirs), record
    assert replace(Own(1), a=2).a == 20                        # its own __init__ ran
    assert replace(Mutable([]), a=2).seen == ["a", "a"]        # its own __setattr__ ran


def test_a_check_in_post_init_still_refuses():
    with pytest.raises(ValueError, match="a is negative"):
        replace(Checked(1), a=-1)


def test_what_the_standard_refuses_is_refused_in_the_same_words():
    cases = [(Slots(1), {"c": 1}), (Plain(1), {"c": 1}), (Derived(1), {"twice": 1}), (Slots, {"a": 1}),
             (object(), {"a": 1})]
    for record, changes in cases:
        with pytest.raises((TypeError, ValueError)) as standard:
            dataclasses.replace(record, **changes)
        with pytest.raises(standard.type) as ours:
            replace(record, **changes)
        assert str(ours.value) == str(standard.value)
