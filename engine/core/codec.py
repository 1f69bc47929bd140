"""Canonical JSON for states and configs, and the state hash. No pickle anywhere.

Encoding walks records (and dataclasses), tuples and frozensets; decoding reads the type
hints of the target dataclass, so a decoded state equals the original.
"""
from __future__ import annotations

import functools
import importlib
import json
import types
import typing
from typing import Any, Union

from .options import Options
from .record import record_fields
from .spec import GameConfig

# Every accepted event is hashed before it is journaled, and resume hashes every line:
# the walk below is on the tap-to-frame path, so it avoids per-value dataclass checks.
_SCALARS = frozenset({str, int, float, bool, type(None)})
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The fields of a record or dataclass type, None for any other type."""
    names = record_fields(cls)                          # record.py: no dataclasses import
    if names is not None:
        return names
    if not hasattr(cls, "__dataclass_fields__"):        # as dataclasses.is_dataclass, unimported
        return None
    import dataclasses
    return tuple(f.name for f in dataclasses.fields(cls))


def to_plain(value: Any) -> Any:
    """Plain JSON values; frozensets become sorted lists so the form is canonical."""
    if type(value) in _SCALARS:
        return value
    kind: type = type(value)
    names = _field_names(kind)
    if names is not None:
        fields = [getattr(value, name) for name in names]
        return dict(zip(names, [v if type(v) in _SCALARS else to_plain(v) for v in fields]))
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else to_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((to_plain(v) for v in value), key=dumps)
    return value


def dumps(value: Any) -> str:
    return _ENCODER.encode(to_plain(value))


def state_hash(state: Any) -> str:
    return _sha256()(dumps(state).encode()).hexdigest()


@functools.cache
def _sha256() -> Any:
    """SHA-256 as CPython builds it in (`_sha256`, on 3.11): hashlib would first load OpenSSL,
    7% of `tabletop status`'s start-up, for the same digest of a state's few hundred
    bytes. Where the interpreter has no such module (3.12 renamed it), hashlib's."""
    try:
        return importlib.import_module("_sha256").sha256
    except ImportError:
        import hashlib
        return hashlib.sha256


def from_plain(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from plain JSON data; ValueError on a mismatch."""
    origin = typing.get_origin(tp)
    if tp is Any or tp is object or isinstance(tp, typing.TypeVar):
        return _freeze(data)
    if origin in (Union, types.UnionType):
        return _from_union(typing.get_args(tp), data)
    if isinstance(tp, type) and _field_names(tp) is not None:
        return _from_dataclass(tp, data)
    if origin is tuple:
        args = typing.get_args(tp)
        _expect(isinstance(data, list), tp, data)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], v) for v in data)
        _expect(len(args) == len(data), tp, data)
        return tuple(from_plain(a, v) for a, v in zip(args, data))
    if origin is frozenset:
        _expect(isinstance(data, list), tp, data)
        return frozenset(from_plain(typing.get_args(tp)[0], v) for v in data)
    if tp is type(None):
        _expect(data is None, tp, data)
        return None
    if tp in (int, str, bool):
        _expect(type(data) is tp, tp, data)
        return data
    raise ValueError(f"cannot decode type {tp!r}")


def _from_union(options: tuple, data: Any) -> Any:
    for option in options:
        try:
            return from_plain(option, data)
        except ValueError:
            continue
    raise ValueError(f"{data!r} fits none of {options!r}")


def _from_dataclass(tp: type, data: Any) -> Any:
    _expect(isinstance(data, dict), tp, data)
    hints = _field_types(tp)
    _expect(data.keys() == hints.keys(), tp, data)
    return tp(**{name: from_plain(hint, data[name]) for name, hint in hints.items()})


@functools.cache     # a state's classes never change, and get_type_hints evaluates every annotation
def _field_types(tp: type) -> dict[str, Any]:
    """A dataclass's fields, each with its type."""
    hints = typing.get_type_hints(tp)
    return {name: hints[name] for name in _field_names(tp) or ()}


def _freeze(data: Any) -> Any:
    """JSON data with lists as tuples and dicts as sorted pairs, so it stays hashable."""
    if isinstance(data, list):
        return tuple(_freeze(v) for v in data)
    if isinstance(data, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in data.items()))
    return data


def _expect(ok: bool, tp: Any, data: Any) -> None:
    if not ok:
        raise ValueError(f"{data!r} is not a {getattr(tp, '__name__', tp)}")


def config_to_plain(config: GameConfig) -> dict:
    return {"game": config.game, "players": list(config.players), "first": config.first,
            "options": {k: v for k, v in config.options}, "data": to_plain(config.data)}


def config_from_plain(data: dict) -> GameConfig:
    options: Options = tuple(sorted(data.get("options", {}).items()))
    return GameConfig(data["game"], tuple(data["players"]), data.get("first"), options,
                      data.get("data"))
