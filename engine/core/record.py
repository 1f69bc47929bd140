"""`record`: a class of named fields, as `@dataclass` makes it, at a fraction of its start-up.

Every command that reads a game (`tabletop status` replays one) creates the engine's record
classes first, and with `@dataclass` that was a third of the command's start: importing
`dataclasses` imports `inspect` (with `ast`, `dis` and `tokenize`), and each class got six
methods compiled from source text, one `exec` each. A record compiles only its `__init__`;
`__repr__`, `__eq__`, `__hash__` and the frozen `__setattr__` are the same few functions for
every record, reading the class's fields.

A record behaves as the dataclass it replaces (`frozen=True, slots=True` unless told): the
same `__init__` (fields in order, a base record's first; `default=`, `default_factory=`,
`__post_init__`), `__repr__`, `__eq__` (same class, compared fields in order), `__hash__` (a
frozen record's; none for a mutable one), `__match_args__`, `FrozenInstanceError`, copying and
pickling. It is a dataclass to the standard functions too: `dataclasses.fields`, `replace`,
`asdict` and a plug-in's `@dataclass` subclass read its `__dataclass_fields__`, made the first
time something asks (importing `dataclasses` only then) by `@dataclass` itself, from the
record's own declaration.
"""
from __future__ import annotations

from _thread import get_ident
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_: object):
        return lambda decorator: decorator


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """What `field(...)` declares of one field; `name` is set when its class is made."""
    __slots__ = ("name", "default", "default_factory", "compare", "hash")

    def __init__(self, default: Any, default_factory: Any, compare: bool, hash: bool | None):
        self.name = ""
        self.default, self.default_factory, self.compare, self.hash = (
            default, default_factory, compare, hash)


def field(*, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
          hash: bool | None = None) -> Any:
    """A field's default (a value, or a function called for each record) and whether it is
    compared and hashed, as `dataclasses.field` says them."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, compare, hash)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = True, slots: bool = True) -> Any:
    """Make `cls` a record: `@record`, `@record(frozen=False)`, `@record(slots=False)`."""
    if cls is None:
        return lambda cls: _make(cls, frozen, slots)
    return _make(cls, frozen, slots)


def record_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a record class, in order; None for any other class (a dataclass
    too: the standard functions answer for it)."""
    fields = getattr(cls, "__dict__", {}).get("__record_fields__")
    return None if fields is None else tuple(f.name for f in fields)


def _make(cls: type, frozen: bool, slots: bool) -> type:
    own = _own_fields(cls)
    inherited = [f for base in reversed(cls.__mro__[1:]) for f in base.__dict__.get("__record_fields__", ())]
    every = {f.name: f for f in inherited} | {f.name: f for f in own}   # a redeclared field keeps its place
    fields = tuple(every.values())
    made: list[type] = []       # the class, once made: the frozen __setattr__ refuses anything on it
    methods: dict[str, Any] = {
        "__record_fields__": fields, "__record_frozen__": frozen, "__match_args__": tuple(every),
        "__init__": _init_on_first_call(cls, fields, frozen, made), "__repr__": _repr(fields),
        "__eq__": _eq(fields),
        "__dataclass_fields__": _Lazily("fields"), "__dataclass_params__": _Lazily("params")}
    if frozen:
        hashed = _values([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
        methods.update(__hash__=lambda self: hash(hashed(self)), **_frozen(every, made))
    else:
        methods["__hash__"] = None              # compared but mutable: unhashable, as a dataclass
    if not slots:
        for name, value in methods.items():
            setattr(cls, name, value)
        for f in own:                           # the class keeps a default, as a dataclass does
            if f.default is MISSING:
                if f.name in cls.__dict__:
                    delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
        made.append(cls)
        return cls
    body = {key: value for key, value in cls.__dict__.items()
            if key not in every and key not in ("__dict__", "__weakref__")}
    body["__slots__"] = tuple(f.name for f in own if f.name not in {g.name for g in inherited})
    if frozen:
        methods.update(__getstate__=_getstate, __setstate__=_setstate)
    made.append(type(cls)(cls.__name__, cls.__bases__, body | methods))
    made[0].__qualname__ = cls.__qualname__
    return made[0]


def _own_fields(cls: type) -> list[Field]:
    fields = []
    for name, kind in cls.__dict__.get("__annotations__", {}).items():
        if isinstance(kind, str) and kind.partition("[")[0] in ("ClassVar", "typing.ClassVar"):
            continue
        given = cls.__dict__.get(name, MISSING)
        declared = given if isinstance(given, Field) else Field(given, MISSING, True, None)
        declared.name = name
        fields.append(declared)
    return fields


def _values(names: list[str]) -> Callable[[Any], tuple]:
    """The tuple of these fields' values of a record."""
    if len(names) == 1:
        (name,) = names
        return lambda self: (getattr(self, name),)
    return attrgetter(*names) if names else (lambda self: ())


def _init_on_first_call(cls: type, fields: tuple[Field, ...], frozen: bool, made: list[type]) -> Any:
    """An `__init__` that compiles the real one, puts it in its place and calls it: a command
    creates many record classes and makes instances of few (`guide rules` loads every game)."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _init(cls, fields, frozen)
        type.__setattr__(made[0], "__init__", init)
        init(self, *args, **kwargs)
    return __init__


def _init(cls: type, fields: tuple[Field, ...], frozen: bool) -> Any:
    """The one compiled method: `__init__(self, a, b=..., c=<factory>)` setting each field."""
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    parameters, lines = ["self"], []
    for f in fields:
        value = f.name
        if f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            parameters.append(f"{f.name}=_FACTORY")
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}"
        elif f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        elif "=" in parameters[-1]:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        else:
            parameters.append(f.name)
        lines.append(f"_set(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
    if any("__post_init__" in base.__dict__ for base in cls.__mro__):
        lines.append("self.__post_init__()")
    source = f"def __init__({', '.join(parameters)}):\n    " + "\n    ".join(lines or ["pass"])
    exec(source, scope)         # the source is made above from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _repr(fields: tuple[Field, ...]) -> Callable[[Any], str]:
    names = [f.name for f in fields]
    values = _values(names)
    busy: set[tuple[int, int]] = set()          # as reprlib.recursive_repr: a record in itself is ...

    def __repr__(self: Any) -> str:
        key = (id(self), get_ident())
        if key in busy:
            return "..."
        busy.add(key)
        try:
            shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, values(self)))
        finally:
            busy.discard(key)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _eq(fields: tuple[Field, ...]) -> Callable[[Any, Any], Any]:
    values = _values([f.name for f in fields if f.compare])

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return __eq__


def _frozen(every: dict[str, Field], made: list[type]) -> dict[str, Any]:
    """`__setattr__` and `__delattr__` of a frozen record: as a frozen dataclass, a field, or
    anything on the record class itself, is refused with the standard FrozenInstanceError."""
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is made[0] or name in every:
            _refuse(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is made[0] or name in every:
            _refuse(f"cannot delete field {name!r}")
        object.__delattr__(self, name)
    return {"__setattr__": __setattr__, "__delattr__": __delattr__}


def _refuse(why: str) -> None:
    from dataclasses import FrozenInstanceError  # the standard's own, imported when refused
    raise FrozenInstanceError(why)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in self.__record_fields__]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(self.__record_fields__, state):
        object.__setattr__(self, f.name, value)


class _Lazily:
    """`__dataclass_fields__` or `__dataclass_params__` of a record, made the first time it is
    asked for: `@dataclass` applied to a plain class with the record's fields (so each Field
    is the standard's own), both then kept on the record class in place of this."""

    def __init__(self, which: str) -> None:
        self.which = which

    def __get__(self, instance: Any, owner: type) -> Any:
        import dataclasses
        annotations = {name: kind for base in reversed(owner.__mro__)
                       for name, kind in base.__dict__.get("__annotations__", {}).items()}
        body: dict[str, Any] = {"__module__": owner.__module__, "__annotations__": {}}
        for f in owner.__dict__["__record_fields__"]:
            body["__annotations__"][f.name] = annotations.get(f.name, "Any")
            body[f.name] = dataclasses.field(
                default=dataclasses.MISSING if f.default is MISSING else f.default,
                default_factory=dataclasses.MISSING if f.default_factory is MISSING else f.default_factory,
                compare=f.compare, hash=f.hash)
        frozen = owner.__dict__["__record_frozen__"]
        shadow: Any = dataclasses.dataclass(frozen=frozen)(type(owner.__name__, (), body))
        type.__setattr__(owner, "__dataclass_fields__", shadow.__dataclass_fields__)
        type.__setattr__(owner, "__dataclass_params__", shadow.__dataclass_params__)
        return owner.__dict__[f"__dataclass_{self.which}__"]
