"""A table's words on the wire: its texts as message keys and arguments, rendered by the reader.

A table sends what its screen says (the prompt, the last event's messages, its faults) as
`{"key": ..., "args": {...}}`, not as text, so a dashboard shows them in its own language
through the same catalogs as the table. Anything a broker client sends may be hostile: a
message whose key (or a nested one's) no catalog knows, or whose arguments do not fill its
template, renders as nothing, never as an internal key.
"""
from __future__ import annotations

import device.texts  # noqa: F401  (and the device's)
import engine  # noqa: F401  (registers every game's texts)
from engine.core.text import DEFAULT_LANGUAGE, Msg, catalog, render

MAX_ARGS = 12
MAX_TEXT = 400                        # characters of one rendered message


def to_plain(message: Msg) -> dict:
    return {"key": message.key, "args": {name: _plain_arg(value) for name, value in message.args}}


def _plain_arg(value):
    if isinstance(value, Msg):
        return to_plain(value)
    if isinstance(value, (tuple, list)):
        return [_plain_arg(v) for v in value]
    return value if isinstance(value, (str, int, float)) or value is None else str(value)


def from_plain(data) -> Msg | None:
    """The message `data` stands for, if every key in it is a known one; else None."""
    if not (isinstance(data, dict) and isinstance(data.get("key"), str)
            and data["key"] in catalog(DEFAULT_LANGUAGE) and isinstance(data.get("args", {}), dict)
            and len(data.get("args", {})) <= MAX_ARGS):
        return None
    args = {}
    for name, value in data.get("args", {}).items():
        value = _arg_of(value)
        if value is None:
            return None
        args[name] = value
    return Msg(data["key"], tuple(sorted(args.items())))


def _arg_of(value):
    if isinstance(value, dict):
        return from_plain(value)
    if isinstance(value, list):
        items = [_arg_of(v) for v in value[:MAX_ARGS]]
        return None if any(item is None for item in items) else tuple(items)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None if value is not None else "-"
    return value


def words(data, language: str) -> str | None:
    """The text of a message sent as `to_plain` made it, in `language`; None if it is not one."""
    message = from_plain(data)
    if message is None:
        return None
    try:
        return render(message, language)[:MAX_TEXT]
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None                   # arguments that do not fill the template
