"""A `@record` class behaves as the `@dataclass` it stands for: the same declaration made both
ways gives the same construction, refusals, repr, equality, hash, freezing, copying and the
standard functions' view of it."""
from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.record import field, record
from engine.core.records import replace


def both(source: str, frozen: bool = True, slots: bool = True) -> tuple[type, type]:
    """The class `C` of `source` made a record and a dataclass."""
    made = []
    for decorate, specifier in ((record(frozen=frozen, slots=slots), field),
                                (dataclasses.dataclass(frozen=frozen, slots=slots), dataclasses.field)):
        scope: dict = {"__name__": __name__, "field": specifier}
        exec("from __future__ import annotations\n" + source, scope)
        made.append(decorate(scope["C"]))
    return made[0], made[1]


SOURCE = '''
class C:
    """A card seen."""
    seat: str
    score: int
    tags: tuple[str, ...] = ()
    note: object = field(default=None, compare=False)
    extra: list = field(default_factory=list, hash=False)
'''


def same_outcome(make, *args, **kwargs):
    """What a call gives: ('ok', repr) or ('error', type, message)."""
    try:
        return "ok", repr(make(*args, **kwargs))
    except Exception as exc:            # the same refusal, word for word
        return "error", type(exc).__name__, str(exc)


@given(args=st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=3)), max_size=6),
       names=st.lists(st.sampled_from(["seat", "score", "tags", "note", "extra", "other"]),
                      max_size=3, unique=True))
def test_any_call_builds_or_refuses_as_the_dataclass_does(args, names):
    ours, theirs = both(SOURCE)
    kwargs = {name: 1 for name in names}
    assert same_outcome(ours, *args, **kwargs) == same_outcome(theirs, *args, **kwargs)


@given(a=st.tuples(st.sampled_from("ab"), st.integers(0, 2), st.sampled_from([(), ("x",)]), st.integers(0, 1)),
       b=st.tuples(st.sampled_from("ab"), st.integers(0, 2), st.sampled_from([(), ("x",)]), st.integers(0, 1)))
def test_equality_hash_and_repr_follow_the_dataclass(a, b):
    ours, theirs = both(SOURCE)
    r1, r2 = ours(*a[:3], note=a[3]), ours(*b[:3], note=b[3])
    d1, d2 = theirs(*a[:3], note=a[3]), theirs(*b[:3], note=b[3])
    assert (r1 == r2) == (d1 == d2) and (r1 != r2) == (d1 != d2)
    assert (hash(r1) == hash(r2)) == (hash(d1) == hash(d2))
    assert repr(r1) == repr(d1)
    assert (r1 == d1) is False and r1.__eq__(object()) is NotImplemented


def test_a_frozen_record_refuses_changes_with_the_standard_error():
    ours, _ = both(SOURCE)
    made = ours("Ann", 2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'score'"):
        made.score = 3
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'seat'"):
        del made.seat
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.anything = 1
    assert not hasattr(made, "__dict__") and ours.__slots__ == ("seat", "score", "tags", "note", "extra")


def test_a_mutable_record_changes_and_is_unhashable_as_a_dataclass():
    ours, theirs = both(SOURCE, frozen=False, slots=False)
    made = ours("Ann", 2)
    made.score = 5
    assert made.score == 5 and ours.__hash__ is None is theirs.__hash__
    assert ours("Ann", 2).extra is not ours("Ann", 2).extra       # a new list each time


def test_the_standard_functions_see_a_dataclass():
    ours, theirs = both(SOURCE)
    made = ours("Ann", 2, ("x",))
    assert dataclasses.is_dataclass(made) and dataclasses.is_dataclass(ours)
    assert [(f.name, f.compare, f.hash) for f in dataclasses.fields(made)] == \
        [(f.name, f.compare, f.hash) for f in dataclasses.fields(theirs)]
    assert dataclasses.asdict(made) == {"seat": "Ann", "score": 2, "tags": ("x",), "note": None, "extra": []}
    assert dataclasses.replace(made, score=4) == replace(made, score=4) == ours("Ann", 4, ("x",))
    assert ours.__dataclass_params__.frozen and ours.__match_args__ == theirs.__match_args__
    with pytest.raises(TypeError):
        replace(made, nope=1)


def test_copies_and_pickles_are_equal_records():
    made = Sub("Ann", 2, 7)
    assert copy.copy(made) == copy.deepcopy(made) == pickle.loads(pickle.dumps(made)) == made


@record
class Base:
    seat: str
    score: int = 0


@record
class Sub(Base):
    bonus: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class PluginSub(Base):
    """A plug-in's own dataclass extending a record, as a game's State extends Table."""
    bonus: int = 1


def test_a_subclass_takes_its_bases_fields_first_as_a_dataclass_does():
    assert Sub.__match_args__ == ("seat", "score", "bonus")
    assert repr(Sub("Ann")) == "Sub(seat='Ann', score=0, bonus=1)"
    assert Sub("Ann") != Base("Ann")
    assert [f.name for f in dataclasses.fields(PluginSub)] == ["seat", "score", "bonus"]
    assert PluginSub("Ann", 3).score == 3 and replace(PluginSub("Ann"), bonus=2).bonus == 2


def test_a_non_default_field_after_a_default_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        both("class C:\n    a: int = 0\n    b: int\n")


def test_a_command_that_replays_a_game_never_imports_dataclasses():
    """The point of `record`: the engine's records, the games and the journal are made without
    `dataclasses` (and so without `inspect`), and a state is hashed without OpenSSL."""
    code = ("import sys, engine, device.storage.journal, tabletop_kit\n"
            "from engine.core.codec import state_hash\n"
            "spec = engine.get('palourde')\n"
            "state_hash(spec.initial(engine.GameConfig('palourde', ('Ann', 'Bea'), {})))\n"
            "print(sorted({'dataclasses', 'inspect', '_hashlib'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stderr
