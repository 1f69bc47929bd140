"""`replace`: a frozen record (a game's state, a card's printed data) with some fields changed.

It means exactly what `dataclasses.replace` means, at a third of its cost: the standard one
walks the class's fields in Python at every call and then calls `__init__` with every field by
name, which was over a third of a whole game's time. Here each class is read once. A frozen
class with slots whose `__init__` is the one `@dataclass` wrote and that has no
`__post_init__` (every game's state) is copied by setting its slots in one straight pass, which
is all that `__init__` would do; any other class is called with every field, as the standard one
does, so its checks run. An unknown field is the standard TypeError, word for word, and a
class whose fields `replace` treats specially (`init=False`, `InitVar`, `ClassVar`) goes to
the standard one.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any

from .record import record_fields

Copier = Callable[[Any, dict[str, Any]], Any]

_COPIERS: dict[type, Copier] = {}


def _standard(obj: Any, changes: dict[str, Any]) -> Any:
    import dataclasses  # here: a record (record.py) is copied without it
    return dataclasses.replace(obj, **changes)


def copier(cls: type) -> Copier:
    """How to copy an instance of `cls` with changes: made once per class."""
    names = _field_names(cls)
    if not names:
        return _standard
    values = operator.attrgetter(*names) if len(names) > 1 else (lambda obj: (getattr(obj, names[0]),))
    place = {name: i for i, name in enumerate(names)}
    if not only_sets_slots(cls, names):
        def call(obj: Any, changes: dict[str, Any]) -> Any:
            if not changes.keys() <= place.keys():
                return _standard(obj, changes)      # the standard refusal
            fields = dict(zip(names, values(obj)))
            fields.update(changes)
            return cls(**fields)
        return call
    return compiled_copy(cls, names, frozenset(place))


def compiled_copy(cls: type, names: tuple[str, ...], known: frozenset[str]) -> Copier:
    """`copy(obj, changes)`: a new instance whose slots are set in one straight pass, each from
    `changes` or else from `obj`, written out for this class's fields (a loop over them, or
    over a list of values, costs twice as much: a game's `play` copies its state for each card
    tried, most of the time the engine spends)."""
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "known": known,
                             "standard": _standard}
    lines = ["def copy(obj, changes):",
             "    if not known.issuperset(changes):",
             "        return standard(obj, changes)       # the standard refusal",
             "    record = new(cls)"]
    for n, name in enumerate(names):
        scope[f"set{n}"] = getattr(cls, name).__set__
        lines.append(f"    set{n}(record, changes[{name!r}] if {name!r} in changes else obj.{name})")
    lines.append("    return record")
    exec("\n".join(lines), scope)      # the source is made here from the class's own field names
    copy: Copier = scope["copy"]
    return copy


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields `__init__` takes, in order; none where `replace` must go the standard way."""
    names = record_fields(cls)
    if names is not None:                           # a record: every field is an init field
        return names
    import dataclasses
    every: dict[str, Any] = getattr(cls, "__dataclass_fields__", {})
    fields = dataclasses.fields(cls) if every else ()
    if not fields or len(fields) != len(every) or not all(f.init for f in fields):
        return ()
    return tuple(f.name for f in fields)


def only_sets_slots(cls: type, names: tuple[str, ...]) -> bool:
    """`cls(...)` does nothing but set each field's slot: frozen, slots, no `__post_init__`, and
    the `__init__` that `@record` made for this very class, or that `@dataclass` generated for
    it (compiled from a string, not written in a file, nor a base class's that sets only its
    own fields)."""
    slots = all(isinstance(getattr(cls, name, None), MemberDescriptorType) for name in names)
    if not slots or hasattr(cls, "__post_init__"):
        return False
    if "__record_fields__" in cls.__dict__:
        return bool(cls.__dict__["__record_frozen__"])
    params = getattr(cls, "__dataclass_params__", None)
    init = getattr(cls, "__init__", None)
    code = getattr(init, "__code__", None)
    return (params is not None and params.frozen and code is not None
            and code.co_filename == "<string>"
            and getattr(init, "__qualname__", None) == f"{cls.__qualname__}.__init__")


def _replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the dataclass instance `obj` with `changes`, as dataclasses.replace."""
    cls = obj.__class__
    copy = _COPIERS.get(cls)
    if copy is None:
        copy = _COPIERS[cls] = copier(cls)
    return copy(obj, changes)


if TYPE_CHECKING:
    # mypy checks a call of the standard one against the record's fields: keep that check
    from dataclasses import replace as replace
else:
    replace = _replace
